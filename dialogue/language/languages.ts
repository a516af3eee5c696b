import { AGENT_LANGUAGES, LANGUAGE_NAMES, type AgentLanguage } from '../../contract/languages.js';
import type { Script } from '../../models/tts/index.js';

// The languages a caller may be answered in. Codes are whisper's (ISO 639-1 for all of
// these), so what the speech engine reports needs no mapping beyond its full names.

export const LANGUAGES = AGENT_LANGUAGES;
export type LanguageCode = AgentLanguage;

/** English always; the others the 2021 Census counts most often in England and Wales (issue 42). */
export const DEFAULT_ALLOWED_LANGUAGES: readonly LanguageCode[] = LANGUAGES;

/** The name the owner reads (summaries, the console, the questions log). */
export const ENGLISH_NAMES = LANGUAGE_NAMES;

/**
 * How each language is written: the locale its dates and lists are formatted in (dates.ts) and
 * the script its catalogue is written in (catalogue.test.ts checks every line against it; its
 * voices must read it, models/tts/voices.ts).
 */
export const LANGUAGE_WRITING: Readonly<Record<LanguageCode, { locale: string; script: Script }>> = {
  en: { locale: 'en-GB', script: 'Latin' },
  pl: { locale: 'pl', script: 'Latin' },
  ro: { locale: 'ro', script: 'Latin' },
  pa: { locale: 'pa', script: 'Gurmukhi' },
  ur: { locale: 'ur', script: 'Arabic' },
  pt: { locale: 'pt-PT', script: 'Latin' },
  es: { locale: 'es', script: 'Latin' },
  cy: { locale: 'cy', script: 'Latin' },
};

/**
 * whisper.cpp's server names the language in full (`whisper_lang_str_full`: "polish") in
 * `language` and `detected_language`, and by code in `language_probabilities`.
 */
const WHISPER_FULL_NAMES: Readonly<Record<string, LanguageCode>> = {
  english: 'en',
  polish: 'pl',
  romanian: 'ro',
  punjabi: 'pa',
  urdu: 'ur',
  portuguese: 'pt',
  spanish: 'es',
  welsh: 'cy',
};

export function isLanguageCode(s: string): s is LanguageCode {
  return (LANGUAGES as readonly string[]).includes(s);
}

/** A whisper language (code or full name) as one of ours; undefined for any other language. */
export function toLanguageCode(whisperLanguage: string | undefined): LanguageCode | undefined {
  if (!whisperLanguage) return undefined;
  const s = whisperLanguage.trim().toLowerCase();
  return isLanguageCode(s) ? s : WHISPER_FULL_NAMES[s];
}

/**
 * An owner's allow-list as stored: known codes only, English always first (the box's
 * language, the one every fixed line falls back to), no repeats.
 */
export function normaliseAllowList(codes: readonly string[] | null | undefined): LanguageCode[] {
  if (!codes) return [...DEFAULT_ALLOWED_LANGUAGES];
  const out: LanguageCode[] = ['en'];
  for (const c of codes) if (isLanguageCode(c) && !out.includes(c)) out.push(c);
  return out;
}

/** The English name of a language a call recorded, for the owner's summary; undefined for English or none. */
export function spokenLanguage(code: string | null | undefined): string | undefined {
  const c = toLanguageCode(code ?? undefined);
  return c && c !== 'en' ? ENGLISH_NAMES[c] : undefined;
}

/** An owner's allow-list as stored (`users.agent_languages`: codes joined by commas; null for the default). */
export function storedAllowList(codes: readonly string[] | null | undefined): string | null {
  return codes ? normaliseAllowList(codes).join(',') : null;
}

export function parseAllowList(stored: string | null | undefined): LanguageCode[] {
  return normaliseAllowList(stored ? stored.split(',') : null);
}
