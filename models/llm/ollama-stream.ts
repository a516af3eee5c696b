import { Ollama } from 'ollama';
import { retryableStatus } from '../engine-error.js';
import { LanguageModelError, type ReplyStreamer } from './language-model.js';

export interface OllamaStreamOptions {
  host: string;
  model: string;
  /** The JSON schema every reply follows (Ollama's structured output); keys stream in schema order. */
  format: Record<string, unknown>;
  keepAlive?: string | number;
  /** Ollama's num_ctx (OLLAMA_NUM_CTX); unset leaves Ollama's own default. */
  numCtx?: number;
  /** Time allowed for the first piece to arrive (a loaded model answers in well under this). */
  firstTokenTimeoutMs?: number;
  fetch?: typeof fetch;
}

/**
 * Ollama `/api/chat` streamed (NDJSON), constrained to a schema through `format` so small
 * models keep to the JSON contract. The agent gives its reply schema, whose key order puts
 * intent and answered before the answer (dialogue/agent/agent-reply.ts).
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
          format: opts.format,
          keep_alive: opts.keepAlive ?? '30m',
          options: { temperature: 0.2, num_predict: 300, ...(opts.numCtx ? { num_ctx: opts.numCtx } : {}) },
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
