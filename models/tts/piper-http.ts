import fs from 'node:fs/promises';
import { withRawWav } from './engine-temp.js';
import { createEspeakTextToSpeech } from './espeak.js';
import { piperSpeaker, piperVoiceNaming } from './piper-speaker.js';
import { CommandError } from './run-command.js';
import { convertToTelephoneWav } from './telephone-audio.js';
import type { TextToSpeech, Voice } from './tts.js';

// The service keeps each voice loaded, so a sentence is a second or two even on a small CPU;
// a long greeting on a busy box takes longer, and a call waits no longer than the CLI's limit.
const SYNTHESIZE_TIMEOUT_MS = 60_000;
const VOICES_TIMEOUT_MS = 5_000;
// Voices change only when the image is rebuilt: asking again every minute finds a new one soon enough.
const VOICES_REFRESH_MS = 60_000;

export interface PiperHttpOptions {
  /** PIPER_URL: the service's base URL, e.g. http://piper:5000. */
  url: string;
  refreshMs?: number;
  timeoutMs?: number;
}

/**
 * Piper through its own service (deploy/piper/server.ts): `POST /synthesize {text, voice}`
 * answers the voice's WAV at its native rate, converted here to telephone audio with sox.
 * Which voice speaks is piper-speaker.ts's rule, over the voices the service lists
 * (`GET /voices`, asked at start and again at most once a minute); a language whose voice the
 * service lacks is spoken by espeak-ng in this container, as with the CLI.
 */
export function createPiperHttpTextToSpeech(opts: PiperHttpOptions): TextToSpeech {
  const espeak = createEspeakTextToSpeech();
  const base = opts.url.replace(/\/+$/, '');
  const refreshMs = opts.refreshMs ?? VOICES_REFRESH_MS;
  let installed = new Set<string>();
  let askedAt = 0;
  let asking: Promise<void> | undefined;

  function refresh(): Promise<void> {
    asking ??= (async () => {
      askedAt = Date.now();
      try {
        const res = await fetch(`${base}/voices`, { signal: AbortSignal.timeout(VOICES_TIMEOUT_MS) });
        const body = (await res.json()) as { voices?: unknown };
        if (res.ok && Array.isArray(body.voices)) installed = new Set(body.voices.filter((v): v is string => typeof v === 'string'));
      } catch {
        // Unreachable or not yet started: the last list stands, and synthesize says what is wrong.
      }
    })().finally(() => (asking = undefined));
    return asking;
  }
  const first = refresh();
  const has = (name: string) => installed.has(name);

  async function fetchWav(text: string, voice: string, signal?: AbortSignal): Promise<Buffer> {
    const where = `the Piper service at PIPER_URL (${base})`;
    const timeout = AbortSignal.timeout(opts.timeoutMs ?? SYNTHESIZE_TIMEOUT_MS);
    let res: Response;
    try {
      res = await fetch(`${base}/synthesize`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ text, voice }),
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
    } catch (err) {
      if (signal?.aborted) throw new CommandError('aborted', `${where} was cancelled`);
      if (timeout.aborted) throw new CommandError('timeout', `${where} did not answer within ${opts.timeoutMs ?? SYNTHESIZE_TIMEOUT_MS} ms`);
      const cause = err instanceof Error && err.cause instanceof Error ? err.cause.message : String(err);
      throw new CommandError(
        'failed',
        `${where} is unreachable (${cause}): check the piper container (docker compose ps piper), or unset PIPER_URL to speak with espeak-ng`,
      );
    }
    const body = Buffer.from(await res.arrayBuffer());
    if (!res.ok) {
      let said = body.toString('utf8').slice(0, 300);
      try {
        said = (JSON.parse(said) as { error?: string }).error ?? said;
      } catch {
        // not JSON: its text is shown as it came
      }
      throw new CommandError('failed', `${where} refused voice ${voice} (${res.status}): ${said}`);
    }
    if (body.subarray(0, 4).toString('latin1') !== 'RIFF') throw new CommandError('failed', `${where} answered something other than a WAV for voice ${voice}`);
    return body;
  }

  return {
    engine: 'piper',
    ...piperVoiceNaming(has, espeak),
    async synthesize(text: string, voice: Voice, outFile: string, signal?: AbortSignal, language?: string, chosen?: string) {
      await first;
      // Asked in the background: this sentence is spoken by the voice its prompt was named for.
      if (Date.now() - askedAt >= refreshMs) void refresh();
      const speaker = piperSpeaker(has, voice, language, chosen);
      if (speaker === 'espeak') return espeak.synthesize(text, voice, outFile, signal, language, chosen);
      const wav = await fetchWav(text, speaker.name, signal);
      await withRawWav('piper-http', async (raw) => {
        await fs.writeFile(raw, wav);
        await convertToTelephoneWav(raw, outFile, signal);
      });
    },
  };
}
