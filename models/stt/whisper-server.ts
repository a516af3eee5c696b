import { maskUrl } from '../../contract/mask-url.js';
import { retryableStatus } from '../engine-error.js';
import { resampleTo16kMono } from './resample.js';
import { SpeechToTextError, type SpeechToText, type Transcript } from './speech-to-text.js';

export interface WhisperServerOptions {
  /** Base URL of whisper.cpp's `whisper-server`, e.g. http://whisper:8080 */
  url: string;
  /** Whole request, upload to answer; CPU transcription of a 2-minute voicemail takes a while. */
  timeoutMs?: number;
  language?: string;
  fetch?: typeof fetch;
}

/**
 * whisper.cpp's HTTP server (examples/server): `POST /inference` with a multipart `file`,
 * `response_format=json` answers `{"text": "..."}`. Asked to detect the language
 * (`language=auto`), it is asked for `verbose_json`, which adds `language` (the full name,
 * "polish") and, from v1.7.6, `detected_language`, `detected_language_probability` and
 * `language_probabilities` (by code) from a separate detection pass
 * (examples/server/server.cpp; `detect_language=true` would return no transcript). The model is loaded once when the
 * server starts, so each request only pays for inference. Errors come back either as an
 * HTTP status (503 while the model loads) or as a 200/400 body `{"error": "..."}` for audio
 * it cannot read.
 */
export function createWhisperServerStt(opts: WhisperServerOptions): SpeechToText {
  const endpoint = `${opts.url.replace(/\/+$/, '')}/inference`;
  const doFetch = opts.fetch ?? fetch;
  const timeoutMs = opts.timeoutMs ?? 120_000;

  return {
    name: 'whisper.cpp server',
    async transcribe(audioFile, { signal, language } = {}): Promise<Transcript> {
      const wav = await resampleTo16kMono(audioFile, { signal });
      const detect = language === 'auto';
      const upload = await multipartUpload(wav, detect ? 'auto' : (opts.language ?? 'en'), detect ? 'verbose_json' : 'json');
      const timeout = AbortSignal.timeout(timeoutMs);
      let res: Response;
      try {
        res = await doFetch(endpoint, {
          method: 'POST',
          body: upload.bytes,
          headers: { 'content-type': upload.contentType },
          signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
        });
      } catch (err) {
        if (timeout.aborted) throw new SpeechToTextError(`Whisper did not answer within ${timeoutMs} ms`, true, undefined, { cause: err });
        throw new SpeechToTextError(`Whisper is unreachable at ${maskUrl(opts.url)}: ${(err as Error).message}`, true, undefined, { cause: err });
      }
      const body = await res.text().catch(() => '');
      let json: WhisperAnswer | undefined;
      try {
        json = JSON.parse(body) as typeof json;
      } catch {
        json = undefined;
      }
      if (!res.ok) {
        const detail = describeError(json?.error) ?? body.slice(0, 200);
        throw new SpeechToTextError(`Whisper answered ${res.status}: ${detail}`, retryableStatus(res.status), res.status);
      }
      if (json?.error !== undefined) {
        throw new SpeechToTextError(`Whisper rejected the audio: ${describeError(json.error)}`, false, res.status);
      }
      if (typeof json?.text !== 'string') {
        throw new SpeechToTextError('Whisper answered without a transcript (is response_format=json supported?)', true, res.status);
      }
      const text = json.text.replace(/\s+/g, ' ').trim();
      return detect ? { text, ...heardLanguage(json) } : { text };
    },
  };
}

/**
 * The multipart body as bytes, encoded by the platform's own FormData serialiser. Handing
 * fetch the FormData itself would let undici encode it on a background task that throws an
 * unhandled rejection ("ReadableStream is already closed") when the request is aborted
 * before it starts, as when the worker stops mid-job; a byte body has no such task.
 */
async function multipartUpload(wav: Uint8Array<ArrayBuffer>, language: string, format: 'json' | 'verbose_json'): Promise<{ bytes: Uint8Array; contentType: string }> {
  const form = new FormData();
  form.append('file', new Blob([wav], { type: 'audio/wav' }), 'audio.wav');
  form.append('response_format', format);
  form.append('language', language);
  form.append('temperature', '0.0');
  const encoded = new Response(form);
  return { bytes: new Uint8Array(await encoded.arrayBuffer()), contentType: encoded.headers.get('content-type')! };
}

interface WhisperAnswer {
  text?: unknown;
  error?: unknown;
  language?: unknown;
  detected_language?: unknown;
  detected_language_probability?: unknown;
  language_probabilities?: unknown;
}

/**
 * The language of a verbose_json answer: the detection pass's when the server ran one (it
 * carries the probability), else the decoder's own, without a probability, so a server
 * older than v1.7.6 never causes a switch.
 */
function heardLanguage(json: WhisperAnswer): Pick<Transcript, 'language' | 'languageProbability'> {
  const name = typeof json.detected_language === 'string' ? json.detected_language : typeof json.language === 'string' ? json.language : undefined;
  if (!name) return {};
  const p = json.detected_language_probability;
  return typeof p === 'number' && Number.isFinite(p) && typeof json.detected_language === 'string' ? { language: name, languageProbability: p } : { language: name };
}

function describeError(e: unknown): string | undefined {
  if (e === undefined) return undefined;
  if (typeof e === 'string') return e;
  if (e && typeof e === 'object' && 'message' in e) return String((e as { message: unknown }).message);
  return JSON.stringify(e);
}

/** Whether a whisper.cpp server answers (its page at `/`, what the compose healthcheck asks for): probes an endpoint back into the pool. */
export async function whisperAnswers(url: string, fetchImpl: typeof fetch = fetch): Promise<boolean> {
  const res = await fetchImpl(`${url.replace(/\/+$/, '')}/`, { signal: AbortSignal.timeout(3000) });
  await res.body?.cancel();
  return res.ok;
}
