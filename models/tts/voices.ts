import type { Voice, VoiceOption } from './tts.js';

/**
 * Piper's UK voices (files `<name>.onnx` and `<name>.onnx.json` in PIPER_VOICES_DIR),
 * as published at huggingface.co/rhasspy/piper-voices under en/en_GB/.
 */
export const PIPER_VOICES: Readonly<Record<Voice, string>> = {
  female: 'en_GB-jenny_dioco-medium',
  male: 'en_GB-alan-medium',
};

/** espeak-ng's British English, with its female variant f3 for the female voice. */
export const ESPEAK_VOICES: Readonly<Record<Voice, string>> = {
  female: 'en-gb+f3',
  male: 'en-gb',
};

/** The writing system a voice reads: a voice given another script spells letters out or says nothing. */
export type Script = 'Latin' | 'Arabic' | 'Gurmukhi';

export interface LanguageVoices {
  /** What the language is written in, and so what its voices must read. */
  script: Script;
  /**
   * Piper's voices for the language (huggingface.co/rhasspy/piper-voices), where Piper has
   * one; a language with a single published voice uses it for both.
   */
  piper?: Readonly<Record<Voice, string>>;
  /** espeak-ng's voice (`espeak-ng --voices`), which every language here has. */
  espeak: Readonly<Record<Voice, string>>;
  /** The scripts each engine's voice for the language reads, for the check that none is given text it cannot read. */
  reads: { piper?: Script; espeak: Script };
}

/**
 * The voices of the languages other than English a caller may be answered in (issue 42),
 * by whisper's language code. Urdu and Panjabi have no Piper voice: espeak-ng speaks them
 * (Urdu in Arabic script, Panjabi in Gurmukhi, what whisper writes for each).
 */
export const LANGUAGE_VOICES: Readonly<Record<string, LanguageVoices>> = {
  pl: { script: 'Latin', piper: { female: 'pl_PL-gosia-medium', male: 'pl_PL-darkman-medium' }, espeak: { female: 'pl+f3', male: 'pl' }, reads: { piper: 'Latin', espeak: 'Latin' } },
  ro: { script: 'Latin', piper: { female: 'ro_RO-mihai-medium', male: 'ro_RO-mihai-medium' }, espeak: { female: 'ro+f3', male: 'ro' }, reads: { piper: 'Latin', espeak: 'Latin' } },
  pt: { script: 'Latin', piper: { female: 'pt_PT-tugão-medium', male: 'pt_PT-tugão-medium' }, espeak: { female: 'pt+f3', male: 'pt' }, reads: { piper: 'Latin', espeak: 'Latin' } },
  es: { script: 'Latin', piper: { female: 'es_ES-davefx-medium', male: 'es_ES-davefx-medium' }, espeak: { female: 'es+f3', male: 'es' }, reads: { piper: 'Latin', espeak: 'Latin' } },
  cy: { script: 'Latin', piper: { female: 'cy_GB-gwryw_gogleddol-medium', male: 'cy_GB-gwryw_gogleddol-medium' }, espeak: { female: 'cy+f3', male: 'cy' }, reads: { piper: 'Latin', espeak: 'Latin' } },
  ur: { script: 'Arabic', espeak: { female: 'ur+f3', male: 'ur' }, reads: { espeak: 'Arabic' } },
  pa: { script: 'Gurmukhi', espeak: { female: 'pa+f3', male: 'pa' }, reads: { espeak: 'Gurmukhi' } },
};

/** English (undefined, 'en') or a language with voices here; any other language is spoken in English's voice. */
export function languageVoices(language: string | undefined): LanguageVoices | undefined {
  return language && language !== 'en' ? LANGUAGE_VOICES[language] : undefined;
}

/** espeak-ng's voices for a language other than English, as the owner may choose them (always installed with espeak-ng). */
export function espeakVoiceOptions(language: string): VoiceOption[] {
  const v = languageVoices(language);
  if (!v) return [];
  const sexes = (['female', 'male'] as const).filter((s, i, all) => all.findIndex((o) => v.espeak[o] === v.espeak[s]) === i);
  return sexes.map((s) => ({ id: `espeak-ng:${v.espeak[s]}`, label: `Basic ${s} voice (plainer, more robotic)` }));
}

/** The Piper models published for a language other than English, once each ("ro_RO-mihai-medium" serves both). */
export function piperModelNames(language: string): string[] {
  const piper = languageVoices(language)?.piper;
  return piper ? [...new Set([piper.female, piper.male])] : [];
}

/** What the owner reads for a Piper voice: its speaker's name ("pl_PL-gosia-medium" → "Gosia (Piper)"). */
export function piperVoiceLabel(model: string): string {
  const speaker = (model.split('-')[1] ?? model).replace(/_/g, ' ');
  return `${speaker.charAt(0).toUpperCase()}${speaker.slice(1)} (Piper)`;
}
