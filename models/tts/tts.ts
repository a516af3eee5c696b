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
  /**
   * Writes `text` spoken in `voice` to `outFile` as 8 kHz mono signed 16-bit PCM WAV, in
   * `language`'s voice (whisper's code, models/tts/voices.ts LANGUAGE_VOICES; default English).
   */
  synthesize(text: string, voice: Voice, outFile: string, signal?: AbortSignal, language?: string): Promise<void>;
  /** The engine and voice model that would speak `language` (e.g. "piper:pl_PL-gosia-medium"): names the cached prompt, recorded on a call. */
  voiceName?(voice: Voice, language?: string): string;
}

/** Who is waiting for speech: a caller on a live call, or work that can wait (a console preview, a greeting made ahead). */
export type SpeechPriority = 'call' | 'background';

export interface PromptCache {
  /**
   * The prompt for (text, voice) on this engine, synthesised at most once. `priority`
   * (default 'call'): 'background' work (previews, greetings made ahead) waits for callers.
   * `language`: whisper's code of the language the text is in (default English).
   */
  get(text: string, voice: Voice, priority?: SpeechPriority, language?: string): Promise<Prompt>;
  /** The engine's name for the voice that speaks `language` (TextToSpeech.voiceName), when it has one. */
  voiceName?(voice: Voice, language?: string): string | undefined;
}

/** Mirrors Config['tts'] structurally, so models/ stays free of core/ imports. */
export interface TtsConfig {
  engine?: 'piper' | 'espeak-ng';
  piperBin: string;
  piperVoicesDir?: string;
}
