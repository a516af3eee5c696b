import type { OllamaRequest } from './server.js';

/**
 * A replier for the Ollama double that answers a conversation from the knowledge base in its
 * system prompt, as the real model is asked to: the answer to the entry whose question is what
 * the caller said last, or else the first entry's. Concurrent calls to different businesses
 * each get their own business's answer. A summary request (`stream: false`, the post-call
 * pipeline) gets `summary`.
 */
export function knowledgeBaseReplier(summary: string): (req: OllamaRequest) => string {
  const words = (s: string) => s.toLowerCase().replace(/[^a-z0-9 ]/g, '').trim();
  return (req) => {
    if (req.body.stream === false) return summary;
    const messages = req.body.messages as Array<{ role: string; content: string }>;
    const system = messages.find((m) => m.role === 'system')?.content ?? '';
    const asked = words(messages.filter((m) => m.role === 'user').at(-1)?.content ?? '');
    const entries = [...system.matchAll(/Q: (.+)\n\s*A: (.+)/g)].map((m) => ({ q: words(m[1]!), a: m[2]! }));
    const answer = (entries.find((e) => e.q === asked) ?? entries[0])?.a;
    return JSON.stringify(answer ? { intent: 'question', answered: true, answer } : { intent: 'question', answered: false, answer: '' });
  };
}
