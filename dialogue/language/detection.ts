import { languageAskedFor } from './asked-for.js';
import { toLanguageCode, type LanguageCode } from './languages.js';

// When the agent changes the language it answers in. Whisper guesses a language for every
// turn, and short turns are guessed badly (an English "Hello?" scored Latin 0.85 in a test
// here), so a switch needs an allowed language, enough words and a confident guess; a caller
// who names a language gets it at once. Pure: the conversation feeds it each turn.

export interface HeardLanguage {
  /** Whisper's language for the turn (code or full name), when it reported one. */
  language?: string;
  /** Its probability (whisper.cpp v1.7.6+ `detected_language_probability`); absent: never switch on it. */
  probability?: number;
}

export interface LanguagePolicy {
  allowed: readonly LanguageCode[];
  /** Words a turn needs before its language is believed. */
  minWords: number;
  /** The probability a turn's language needs before it is believed. */
  minProbability: number;
}

export const DEFAULT_LANGUAGE_POLICY: Omit<LanguagePolicy, 'allowed'> = {
  // "Hello?", "Yes please", "Dzień dobry" alone never switch; a question does.
  minWords: 4,
  minProbability: 0.7,
};

export type LanguageDecision =
  | { language: LanguageCode; changed: false; reason: 'same' | 'too-short' | 'unsure' | 'not-allowed' | 'unknown' }
  | { language: LanguageCode; changed: true; reason: 'asked' | 'detected' };

export function decideLanguage(current: LanguageCode, text: string, heard: HeardLanguage, policy: LanguagePolicy): LanguageDecision {
  const stay = (reason: Extract<LanguageDecision, { changed: false }>['reason']): LanguageDecision => ({ language: current, changed: false, reason });
  const asked = languageAskedFor(text);
  if (asked !== undefined) {
    if (!policy.allowed.includes(asked)) return stay('not-allowed');
    return asked === current ? stay('same') : { language: asked, changed: true, reason: 'asked' };
  }
  const detected = toLanguageCode(heard.language);
  if (heard.language === undefined) return stay('unknown');
  if (detected === current) return stay('same');
  if (detected === undefined || !policy.allowed.includes(detected)) return stay('not-allowed');
  if (countWords(text) < policy.minWords) return stay('too-short');
  if (heard.probability === undefined || heard.probability < policy.minProbability) return stay('unsure');
  return { language: detected, changed: true, reason: 'detected' };
}

function countWords(text: string): number {
  return text.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
}
