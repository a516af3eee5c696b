import type { EnginePool, Priority } from '../pool/engine-pool.js';
import { pooledSpeechToText } from './pooled.js';
import { SpeechToTextError, type SpeechToText } from './speech-to-text.js';
import { createWhisperServerStt } from './whisper-server.js';

/**
 * Speech-to-text over the pool of whisper.cpp servers WHISPER_URL names (the `whisper`
 * compose service, started with the model WHISPER_MODEL names). Without one transcription
 * waits: every attempt fails as retryable, so calls keep their recordings and are
 * transcribed once it is configured.
 */
export function createSpeechToText(pool: EnginePool | undefined, priority: Priority, opts: { timeoutMs?: number } = {}): SpeechToText {
  if (pool) return pooledSpeechToText(pool, priority, (url) => createWhisperServerStt({ url, timeoutMs: opts.timeoutMs }));
  return {
    name: 'unconfigured',
    async transcribe() {
      throw new SpeechToTextError('Speech-to-text is not configured: set WHISPER_URL to the whisper.cpp server', true);
    },
  };
}
