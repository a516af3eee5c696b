// The text-to-speech port: what the call flows need from an engine, nothing vendor-shaped.

export type Voice = 'female' | 'male';

/**
 * One voice the box can speak a language in (issue 42), for the owner to choose: `id` is the
 * engine's name for it, the one a call records (`voiceName`: "piper:pl_PL-gosia-medium",
 * "espeak-ng:pl+f3"); `label` is what the console shows.
 */
export interface VoiceOption {
  id: string;
  label: string;
}

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
   * `chosen`: the owner's voice for that language (a VoiceOption id); one this engine does not
   * have for the language is ignored, and `voice` picks as before.
   */
  synthesize(text: string, voice: Voice, outFile: string, signal?: AbortSignal, language?: string, chosen?: string): Promise<void>;
  /** The engine and voice model that would speak `language` (e.g. "piper:pl_PL-gosia-medium"): names the cached prompt, recorded on a call. */
  voiceName?(voice: Voice, language?: string, chosen?: string): string;
  /** The voices installed for a language other than English, for the owner to choose from (none for English: its voice is the female/male setting). */
  voices?(language: string): VoiceOption[];
}

/** Who is waiting for speech: a caller on a live call, or work that can wait (a console preview, a greeting made ahead). */
export type SpeechPriority = 'call' | 'background';

export interface PromptCache {
  /**
   * The prompt for (text, voice) on this engine, synthesised at most once. `priority`
   * (default 'call'): 'background' work (previews, greetings made ahead) waits for callers.
   * `language`: whisper's code of the language the text is in (default English). `chosen`:
   * the owner's voice for it (TextToSpeech.synthesize).
   */
  get(text: string, voice: Voice, priority?: SpeechPriority, language?: string, chosen?: string): Promise<Prompt>;
  /** The engine's name for the voice that speaks `language` (TextToSpeech.voiceName), when it has one. */
  voiceName?(voice: Voice, language?: string, chosen?: string): string | undefined;
  /** The voices installed for a language other than English (TextToSpeech.voices). */
  voices?(language: string): VoiceOption[];
}

/** Mirrors Config['tts'] structurally, so models/ stays free of core/ imports. */
export interface TtsConfig {
  engine?: 'piper' | 'espeak-ng';
  piperBin: string;
  piperVoicesDir?: string;
  /** The Piper service (deploy/piper): when set, Piper is spoken through it instead of the CLI. */
  piperUrl?: string;
}
