import { maskUrl } from '../../contract/mask-url.js';
import { Ollama } from 'ollama';
import { retryableStatus } from '../engine-error.js';
import { LanguageModelError, type ChatMessage, type ChatOptions, type LanguageModel } from './language-model.js';

export interface OllamaOptions {
  /** OLLAMA_URL, e.g. http://ollama:11434 */
  host: string;
  model: string;
  /** How long Ollama keeps the model in memory after a request, so the next call skips the load. */
  keepAlive?: string | number;
  timeoutMs?: number;
  /** Ollama's num_ctx (OLLAMA_NUM_CTX); unset leaves Ollama's own default. */
  numCtx?: number;
  fetch?: typeof fetch;
}

/**
 * Ollama through the official `ollama` package (`/api/chat`, not streamed: a summary is
 * short and is only useful whole). The package takes no per-request signal for
 * non-streamed calls, so each call gets a client whose fetch carries the caller's signal
 * and the timeout (karakeep's InferenceClient does the same).
 */
export function createOllamaLanguageModel(opts: OllamaOptions): LanguageModel {
  const baseFetch = opts.fetch ?? fetch;
  const timeoutMs = opts.timeoutMs ?? 60_000;

  return {
    name: `ollama ${opts.model}`,
    async chat(messages: ChatMessage[], { signal, maxTokens, temperature, format }: ChatOptions = {}) {
      const timeout = AbortSignal.timeout(timeoutMs);
      const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
      const client = new Ollama({
        host: opts.host,
        fetch: (input, init) => baseFetch(input, { ...init, signal: combined }),
      });
      try {
        const res = await client.chat({
          model: opts.model,
          messages,
          stream: false,
          ...(format ? { format } : {}),
          keep_alive: opts.keepAlive ?? '30m',
          options: { temperature: temperature ?? 0.2, ...(maxTokens ? { num_predict: maxTokens } : {}), ...(opts.numCtx ? { num_ctx: opts.numCtx } : {}) },
        });
        return res.message?.content ?? '';
      } catch (err) {
        throw classify(err, timeout.aborted, timeoutMs, opts.host);
      }
    },
  };
}

function classify(err: unknown, timedOut: boolean, timeoutMs: number, host: string): LanguageModelError {
  if (timedOut) return new LanguageModelError(`Ollama did not answer within ${timeoutMs} ms`, true, undefined, { cause: err });
  const e = err as { name?: string; status_code?: number; message?: string };
  // The package throws ResponseError (not exported) carrying the HTTP status.
  if (e?.name === 'ResponseError' && typeof e.status_code === 'number') {
    const s = e.status_code;
    const retryable = retryableStatus(s);
    const hint = s === 404 ? ` (pull the model on the Ollama host: ollama pull <model>)` : '';
    return new LanguageModelError(`Ollama answered ${s}: ${e.message}${hint}`, retryable, s, { cause: err });
  }
  if (e?.name === 'AbortError') return new LanguageModelError('the Ollama request was cancelled', true, undefined, { cause: err });
  return new LanguageModelError(`Ollama is unreachable at ${maskUrl(host)}: ${e?.message ?? String(err)}`, true, undefined, { cause: err });
}

/** Whether an Ollama server answers (`GET /api/version`): probes an endpoint back into the pool. */
export async function ollamaAnswers(host: string, fetchImpl: typeof fetch = fetch): Promise<boolean> {
  const res = await fetchImpl(`${host.replace(/\/+$/, '')}/api/version`, { signal: AbortSignal.timeout(3000) });
  await res.body?.cancel();
  return res.ok;
}
