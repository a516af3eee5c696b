import type { LlmRates, SttRates, TtsRates } from './hardware-profiles.js';

/**
 * Engine time on a box, from its published rates (hardware-profiles.ts) and the real request:
 * the prompt's tokens, the tokens generated, the audio's seconds, the sentence's characters.
 * Pure, so the doubles, the benches and the self-test's advice compute the same milliseconds.
 */


/** whisper.cpp's encoder window (the server's default audio context). */
const WHISPER_WINDOW_SECONDS = 30;

/** Whisper tokens per second of speech: about 2.5 words a second at about 1.3 tokens a word. */
const SPEECH_TOKENS_PER_SECOND = 3.3;

/** Characters of text per second of speech (150 words a minute at about six characters a word, space included). */
export const SPOKEN_CHARS_PER_SECOND = 15;

export function promptReadMs(rates: LlmRates, promptTokens: number): number {
  return (promptTokens / rates.promptTokensPerSecond.value) * 1000;
}

export function generationMs(rates: LlmRates, tokens: number): number {
  return (tokens / rates.generationTokensPerSecond.value) * 1000;
}

/** One encode per started 30 s window (a 2 s turn costs a whole window), then a decode per spoken token. */
export function sttMs(rates: SttRates, audioSeconds: number): number {
  if (audioSeconds <= 0) return 0;
  const windows = Math.ceil(audioSeconds / WHISPER_WINDOW_SECONDS);
  return windows * rates.encodeMsPerWindow.value + audioSeconds * SPEECH_TOKENS_PER_SECOND * rates.decodeMsPerToken.value;
}

/** STT time per second of audio, for a clip of this length (the table's "seconds per second"). */
export function sttSecondsPerAudioSecond(rates: SttRates, audioSeconds: number): number {
  return sttMs(rates, audioSeconds) / 1000 / audioSeconds;
}

/** Piper synthesises a sentence whole: its time is the real-time factor times the sentence's spoken length. */
export function ttsMs(rates: TtsRates, text: string): number {
  return (text.length / SPOKEN_CHARS_PER_SECOND) * rates.realTimeFactor.value * 1000;
}
