import { generationMs, promptReadMs } from '../../../models/hardware/engine-time.js';
import { estimateTokens } from '../../../models/llm/token-estimate.js';
import type { LlmRates } from '../../../models/hardware/hardware-profiles.js';

/**
 * The Ollama double's timing on a simulated box (issue 61): set `profile` on the double and each
 * request is held for what the box's published rates say this request costs: its prompt read
 * (tokens of every message it was sent), then its reply generated, the first sentence streamed
 * as soon as its tokens are out. `scale` shrinks every delay alike (a test's 0.01).
 */
export interface LlmProfile {
  rates: LlmRates;
  scale?: number;
}

/** What a request costs on the profile, in ms before `scale`; recorded on the double's request. */
export interface LlmTiming {
  promptTokens: number;
  replyTokens: number;
  tokensToFirstSentence: number;
  promptMs: number;
  /** Prompt read, then the tokens up to the first sentence's end. */
  firstPieceMs: number;
  /** Prompt read, then the whole reply. */
  totalMs: number;
}

/** The text the model reads: every chat message's content, or /api/generate's system and prompt. */
function promptText(body: Record<string, any>): string {
  if (Array.isArray(body.messages)) return body.messages.map((m: { content?: unknown }) => (typeof m.content === 'string' ? m.content : '')).join('\n');
  return [body.system, body.prompt].filter((s): s is string => typeof s === 'string').join('\n');
}

export function llmTiming(rates: LlmRates, body: Record<string, any>, reply: string): LlmTiming {
  const promptTokens = estimateTokens(promptText(body));
  const replyTokens = Math.max(1, estimateTokens(reply));
  const tokensToFirstSentence = Math.max(1, estimateTokens(reply.slice(0, firstSentenceEnd(reply))));
  const read = promptReadMs(rates, promptTokens);
  return {
    promptTokens,
    replyTokens,
    tokensToFirstSentence,
    promptMs: read,
    firstPieceMs: read + generationMs(rates, tokensToFirstSentence),
    totalMs: read + generationMs(rates, replyTokens),
  };
}

/** Where a reply's first sentence ends (after its closing mark and a quote or space), in the answer of an agent reply if there is one. */
export function firstSentenceEnd(text: string): number {
  const from = Math.max(0, text.indexOf('"answer"'));
  const end = /[.?!]["\s]/.exec(text.slice(from));
  return end ? from + end.index + 2 : text.length;
}
