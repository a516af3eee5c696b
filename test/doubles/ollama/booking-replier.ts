import { knowledgeBaseReplier } from './knowledge-base-replier.js';
import type { OllamaRequest } from './server.js';

/**
 * A replier for the Ollama double that plays booking conversations (issue 41) the way the real
 * model is asked to: from the system prompt it was sent. Outside a booking it says "book" when
 * the caller asks for one (only if the prompt allows "book"), goodbye on a goodbye, and answers
 * from the knowledge base otherwise. In a booking step it reads the step the prompt shows and
 * answers with what that step asks for: the id ("s1"…) of the offered time whose words the
 * caller said ("eleven" picks the one "at eleven o'clock"), "other" or "none", the name, the
 * number, yes or no. It can only pick ids the prompt listed, so a test proves the ids reached
 * the model. A summary request (`stream: false`) gets `summary`.
 */
export function bookingReplier(summary: string): (req: OllamaRequest) => string {
  const fromKnowledge = knowledgeBaseReplier(summary);
  const book = (fields: Record<string, unknown> = {}) => JSON.stringify({ intent: 'book', answered: true, answer: '', ...fields });
  return (req) => {
    if (req.body.stream === false) return summary;
    const messages = req.body.messages as Array<{ role: string; content: string }>;
    const system = messages.find((m) => m.role === 'system')?.content ?? '';
    const said = messages.filter((m) => m.role === 'user').at(-1)?.content ?? '';
    const step = /BOOKING IN PROGRESS:\n(.+)/.exec(system)?.[1] ?? '';
    if (/\b(goodbye|bye)\b/i.test(said)) return JSON.stringify({ intent: 'goodbye', answered: true, answer: 'Thank you for calling. Goodbye.' });
    if (step.startsWith('You offered these times')) {
      if (/\b(none|neither|no thanks|leave it)\b/i.test(said)) return book({ choice: 'none' });
      const offered = [...step.matchAll(/(s\d) = ([^;.]+)/g)].map((m) => ({ id: m[1]!, spoken: m[2]!.toLowerCase() }));
      const hour = /\b(ten|eleven|twelve|one|two|three|four|five|noon)\b/i.exec(said)?.[1]?.toLowerCase();
      const taken = hour ? offered.find((o) => o.spoken.includes(` at ${hour}`) || o.spoken.includes(`twelve ${hour}`)) : undefined;
      if (taken) return book({ choice: taken.id });
      // Only a caller who asks for another time gets "other"; anything else is asked again (no choice).
      return book(/\b(later|earlier|another|other|different|else)\b/i.test(said) ? { choice: 'other' } : {});
    }
    if (step.startsWith("You asked for the caller's name")) return book({ name: said.replace(/^(my name is|it's|it is|i'm|this is)\s+/i, '').replace(/[.!?]+$/, '') });
    if (step.startsWith('You asked for a number')) return book({ number: said });
    if (step.startsWith('You read the booking back')) return book({ yes: /\b(yes|yeah|please do|that's right|correct)\b/i.test(said) });
    if (step.startsWith('You asked which service')) {
      const services = [...step.matchAll(/(v\d) = ([^;.]+)/g)].find((m) => said.toLowerCase().includes(m[2]!.toLowerCase()));
      return book({ choice: services?.[1] ?? 'none' });
    }
    if (step.startsWith('The caller already has a booking')) return book({ choice: /cancel/i.test(said) ? 'cancel' : /move|change/i.test(said) ? 'move' : /another|new/i.test(said) ? 'new' : 'keep' });
    if (system.includes('set intent to "book"') && /\b(book|appointment)\b/i.test(said)) return book();
    return fromKnowledge(req);
  };
}
