import { Ollama } from 'ollama';
import { retryableStatus } from '../engine-error.js';
import { LanguageModelError, type ChatMessage } from '../llm/language-model.js';
import { AGENT_REPLY_SCHEMA, parseAgentReply, ReplyStreamReader, type AgentIntent, type AgentReply } from './agent-reply.js';
import { SentenceSplitter } from './agent-sentences.js';

// The agent's engine glue, shared by the phone (pbx/flows/agent) and the console's
// "try it" (core/agent-preview): the same prompt, the same model call, the same parsing.

/** A language model that can hand its reply over piece by piece as it is generated. */
export interface ReplyStreamer {
  readonly name: string;
  stream(messages: ChatMessage[], opts?: { signal?: AbortSignal }): AsyncIterable<string>;
}

export interface OllamaStreamOptions {
  host: string;
  model: string;
  keepAlive?: string | number;
  /** Time allowed for the first piece to arrive (a loaded model answers in well under this). */
  firstTokenTimeoutMs?: number;
  fetch?: typeof fetch;
}

/**
 * Ollama `/api/chat` streamed (NDJSON), constrained to the reply schema through `format`
 * so small models keep to the JSON contract; keys stream in schema order, which puts
 * intent and answered before the answer (see agent-reply.ts).
 */
export function createOllamaReplyStreamer(opts: OllamaStreamOptions): ReplyStreamer {
  const baseFetch = opts.fetch ?? fetch;
  return {
    name: `ollama ${opts.model} (streamed)`,
    async *stream(messages, { signal } = {}) {
      const local = new AbortController();
      const stop = () => local.abort();
      signal?.addEventListener('abort', stop, { once: true });
      const firstTimer = setTimeout(stop, opts.firstTokenTimeoutMs ?? 20_000);
      const client = new Ollama({ host: opts.host, fetch: (input, init) => baseFetch(input, { ...init, signal: local.signal }) });
      let gotFirst = false;
      try {
        const parts = await client.chat({
          model: opts.model,
          messages,
          stream: true,
          format: AGENT_REPLY_SCHEMA as unknown as Record<string, unknown>,
          keep_alive: opts.keepAlive ?? '30m',
          options: { temperature: 0.2, num_predict: 300 },
        });
        for await (const part of parts) {
          if (!gotFirst) {
            gotFirst = true;
            clearTimeout(firstTimer);
          }
          const piece = part.message?.content ?? '';
          if (piece) yield piece;
        }
      } catch (err) {
        if (signal?.aborted) throw err;
        const e = err as { name?: string; status_code?: number; message?: string };
        if (!gotFirst && local.signal.aborted) throw new LanguageModelError('Ollama did not start answering in time', true, undefined, { cause: err });
        const status = typeof e.status_code === 'number' ? e.status_code : undefined;
        throw new LanguageModelError(`Ollama failed: ${e.message ?? String(err)}`, status === undefined || retryableStatus(status), status, { cause: err });
      } finally {
        clearTimeout(firstTimer);
        signal?.removeEventListener('abort', stop);
      }
    },
  };
}

export type ResponderEvent =
  /** A sentence ready to be spoken (only ever part of a knowledge-base answer). */
  | { type: 'sentence'; text: string }
  | { type: 'done'; reply: AgentReply; raw: string };

/** Model sentences are spoken only for these intents; the others use fixed lines. */
const SPEAKS_MODEL_TEXT: ReadonlySet<AgentIntent> = new Set(['question', 'goodbye']);

/**
 * Streams the model's reply and yields sentences of the answer as soon as the model has
 * said (answered: true) that the knowledge base covers it. Until then sentences are held,
 * so nothing unverified is ever spoken; the final parse decides what was not streamed.
 */
export async function* respond(streamer: ReplyStreamer, messages: ChatMessage[], signal?: AbortSignal): AsyncGenerator<ResponderEvent> {
  const reader = new ReplyStreamReader();
  const splitter = new SentenceSplitter();
  let raw = '';
  let intent: AgentIntent | undefined;
  let answered: boolean | undefined;
  let held: string[] = [];
  let released = 0;
  const mayRelease = () => answered === true && SPEAKS_MODEL_TEXT.has(intent ?? 'question');

  for await (const piece of streamer.stream(messages, { signal })) {
    raw += piece;
    for (const ev of reader.push(piece)) {
      if (ev.type === 'intent') intent = ev.intent;
      else if (ev.type === 'answered') answered = ev.answered;
      else held.push(...splitter.push(ev.text));
    }
    if (mayRelease() && held.length) {
      for (const text of held) yield { type: 'sentence', text };
      released += held.length;
      held = [];
    }
  }
  const reply = parseAgentReply(raw);
  if (reply.answered && SPEAKS_MODEL_TEXT.has(reply.intent)) {
    held.push(...splitter.flush());
    // A model that put "answer" before "answered" is read whole at the end instead.
    if (released === 0 && held.length === 0) held.push(reply.answer);
    for (const text of held) yield { type: 'sentence', text };
  }
  yield { type: 'done', reply, raw };
}

export interface TurnInput {
  system: string;
  /** Earlier turns, oldest first: caller text and the agent's JSON replies. */
  history: ChatMessage[];
  callerText: string;
}

export function turnMessages(t: TurnInput): ChatMessage[] {
  return [{ role: 'system', content: t.system }, ...t.history, { role: 'user', content: t.callerText }];
}

/** Asks the model to answer the caller's words after the earlier turns: the reply's events (see respond). */
export function askAgent(streamer: ReplyStreamer, turn: TurnInput, signal?: AbortSignal): AsyncGenerator<ResponderEvent> {
  return respond(streamer, turnMessages(turn), signal);
}
