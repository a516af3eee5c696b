import { SpeechToTextError, type SpeechToText } from './speech-to-text.js';
import { createWhisperServerStt } from './whisper-server.js';

export interface SttConfig {
  url?: string;
}

/**
 * WHISPER_URL names the whisper.cpp server (the `whisper` compose service, started with
 * the model WHISPER_MODEL names). Without it transcription waits: every attempt fails as
 * retryable, so calls keep their recordings and are transcribed once it is configured.
 */
export function createSpeechToText(cfg: SttConfig, opts: { timeoutMs?: number } = {}): SpeechToText {
  if (cfg.url) return createWhisperServerStt({ url: cfg.url, timeoutMs: opts.timeoutMs });
  return {
    name: 'unconfigured',
    async transcribe() {
      throw new SpeechToTextError('Speech-to-text is not configured: set WHISPER_URL to the whisper.cpp server', true);
    },
  };
}
