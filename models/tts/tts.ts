// The text-to-speech port: what the call flows need from an engine, nothing vendor-shaped.

export type Voice = 'female' | 'male';

/** A prompt ready for Asterisk: play `mediaUri`; `file` is its 8 kHz mono 16-bit PCM WAV. */
export interface Prompt {
  mediaUri: string;
  file: string;
  durationMs: number;
}

export interface TextToSpeech {
  readonly engine: 'piper' | 'espeak-ng';
  /** Writes `text` spoken in `voice` to `outFile` as 8 kHz mono signed 16-bit PCM WAV. */
  synthesize(text: string, voice: Voice, outFile: string, signal?: AbortSignal): Promise<void>;
}

/** Who is waiting for speech: a caller on a live call, or work that can wait (a console preview, a greeting made ahead). */
export type SpeechPriority = 'call' | 'background';

export interface PromptCache {
  /**
   * The prompt for (text, voice) on this engine, synthesised at most once. `priority`
   * (default 'call'): 'background' work (previews, greetings made ahead) waits for callers.
   */
  get(text: string, voice: Voice, priority?: SpeechPriority): Promise<Prompt>;
}

/** Mirrors Config['tts'] structurally, so models/ stays free of core/ imports. */
export interface TtsConfig {
  engine?: 'piper' | 'espeak-ng';
  piperBin: string;
  piperVoicesDir?: string;
}
