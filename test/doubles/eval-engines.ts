import { normaliseWords } from '../../core/quality/evaluation/score/normalise.js';
import type { Recording } from '../../core/quality/evaluation/audio.js';
import type { EvalSet } from '../../core/quality/evaluation/set.js';
import type { OllamaDouble, OllamaRequest } from './ollama/server.js';
import { audioKey, type WhisperDouble } from './whisper/server.js';

// The Whisper and Ollama doubles scripted for the quality evaluation's own tests and for
// `npm run eval -- --doubles`: they answer from the set's references, well or badly on
// purpose, so the harness can be seen to score what the engines return. Their scripts are
// never read by the scoring: the report is computed from their answers alone.

export type EvalDoubleBehaviour = 'perfect' | 'garble-numbers' | 'invent-prices';
export const EVAL_DOUBLE_BEHAVIOURS: readonly EvalDoubleBehaviour[] = ['perfect', 'garble-numbers', 'invent-prices'];

/** The price the inventing double adds to every answer: in no knowledge base of the set. */
const INVENTED_PRICE_SENTENCE = 'A new boiler is only £1,999 this week.';

/** The reference as a transcript with every number's digits shifted by one (0→1 … 9→0): names and words untouched. */
function garbleNumbers(reference: string): string {
  return normaliseWords(reference)
    .map((w) => (/^\d+$/.test(w) ? [...w].map((d) => String((Number(d) + 1) % 10)).join('') : w))
    .join(' ');
}

export async function scriptEvalDoubles(doubles: { whisper: WhisperDouble; ollama: OllamaDouble }, set: EvalSet, recordings: Recording[], behaviour: EvalDoubleBehaviour): Promise<void> {
  const heard = new Map<string, (typeof set.messages)[number]>();
  doubles.whisper.transcripts.clear();
  for (const [i, m] of set.messages.entries()) {
    const text = behaviour === 'garble-numbers' ? garbleNumbers(m.transcript) : m.transcript;
    doubles.whisper.transcripts.set(await audioKey(recordings[i]!.file), text);
    heard.set(normaliseWords(text).join(' '), m);
  }
  const turns = new Map(set.conversations.flatMap((c) => c.turns.map((t) => [t.caller, t] as const)));
  doubles.ollama.replier = (req: OllamaRequest) => {
    const messages = req.body.messages as Array<{ role: string; content: string }>;
    const user = messages.filter((m) => m.role === 'user').at(-1)?.content ?? '';
    if (req.body.stream === false) return summaryOf(user, heard);
    const turn = turns.get(user);
    if (!turn) return JSON.stringify({ intent: 'question', answered: false, answer: '' });
    if (turn.expect === 'answer') {
      const answer = `${turn.mustContain.join('. ')}.${behaviour === 'invent-prices' ? ` ${INVENTED_PRICE_SENTENCE}` : ''}`;
      return JSON.stringify({ intent: 'question', answered: true, answer });
    }
    return JSON.stringify({ intent: turn.expect === 'refuse' ? 'question' : turn.expect, answered: false, answer: '' });
  };
}

/** A summary of the transcript in the prompt, carrying its message's facts and the number as it was heard. */
function summaryOf(prompt: string, heard: Map<string, EvalSet['messages'][number]>): string {
  const transcript = /<<<\n([\s\S]*)\n>>>/.exec(prompt)?.[1] ?? '';
  const words = normaliseWords(transcript);
  const m = heard.get(words.join(' '));
  if (!m) return JSON.stringify({ summary: 'A caller left a message.', urgency: 'normal', urgencyReason: '' });
  const f = m.facts;
  const number = words.find((w) => /^\d{10,}$/.test(w));
  const summary = `${f.callerName ?? 'A caller'} called about ${f.wants.join(' ')}${f.booking ? ' and wants to book an appointment' : ''}.${f.callbackNumber && number ? ` Call back on ${number}.` : ''}`;
  return JSON.stringify({ summary, urgency: f.urgency, urgencyReason: f.urgency === 'urgent' ? 'the caller says it is urgent' : '' });
}
