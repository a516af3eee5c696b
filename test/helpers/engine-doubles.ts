import { afterAll, beforeAll, beforeEach } from 'vitest';
import { startOllamaDouble, type OllamaDouble } from '../doubles/ollama/server.js';
import { startWhisperDouble, type WhisperDouble } from '../doubles/whisper/server.js';

export interface EngineDoubles {
  readonly whisper: WhisperDouble;
  readonly ollama: OllamaDouble;
  /** The environment that points a core (or loadConfig) at the doubles. */
  env(): { WHISPER_URL: string; OLLAMA_URL: string; OLLAMA_MODEL: string };
}

/**
 * A Whisper and an Ollama double for the whole test file: started before its first test,
 * closed after its last, and before each test rid of what the previous one scripted
 * (failures, scripts, request logs), so no test depends on the order they run in.
 * `transcript` and `summary` are what the engines say unless a test scripts otherwise.
 */
export function useEngineDoubles(opts: { transcript?: string; summary?: string } = {}): EngineDoubles {
  let whisper: WhisperDouble | undefined;
  let ollama: OllamaDouble | undefined;
  const started = <T>(d: T | undefined): T => {
    if (!d) throw new Error('the engine doubles start in beforeAll: use them inside a test or a hook');
    return d;
  };
  beforeAll(async () => {
    [whisper, ollama] = await Promise.all([startWhisperDouble(), startOllamaDouble()]);
    if (opts.transcript !== undefined) whisper.defaultTranscript = opts.transcript;
  });
  afterAll(async () => {
    await Promise.all([whisper?.close(), ollama?.close()]);
  });
  beforeEach(() => {
    Object.assign(started(whisper), { failures: [], alwaysFail: null, delayMs: 0, requests: [] });
    Object.assign(started(ollama), { script: [], always: null, requests: [] });
    const summary = opts.summary;
    if (summary !== undefined) started(ollama).replier = () => summary;
  });
  return {
    get whisper() {
      return started(whisper);
    },
    get ollama() {
      return started(ollama);
    },
    env: () => ({ WHISPER_URL: started(whisper).url, OLLAMA_URL: started(ollama).url, OLLAMA_MODEL: 'llama3.2:3b' }),
  };
}
