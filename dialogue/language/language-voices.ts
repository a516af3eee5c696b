import type { VoiceOption } from '../../models/tts/index.js';
import { ENGLISH_NAMES, isLanguageCode, LANGUAGES, type LanguageCode } from './languages.js';

// The owner's voice per caller language (issue 42): for each ticked language other than
// English, one of the voices the box has installed for it (models/tts lists them, and never
// one that cannot read the language's script), or none for the female/male rule. English's
// voice stays the owner's Voice setting under Greeting, which also speaks the voicemail greeting.

/** The installed voices of a language (the TTS engine's `voices`). */
export type VoicesOf = (language: string) => VoiceOption[];

/**
 * What is wrong with the voices an owner chose, in words for the console (naming the language
 * and the voice); null when they are fine. The settings route names the field before it. `allowed`: the caller languages ticked after the save.
 */
export function languageVoicesProblem(chosen: Readonly<Record<string, string>>, allowed: readonly LanguageCode[], voicesOf: VoicesOf): string | null {
  for (const [language, id] of Object.entries(chosen)) {
    if (!isLanguageCode(language)) {
      const known = LANGUAGES.filter((c) => c !== 'en').map((c) => `${c} (${ENGLISH_NAMES[c]})`).join(', ');
      return `The agent does not speak "${language}" (voice "${id}"). Choose voices for ${known}.`;
    }
    const name = ENGLISH_NAMES[language];
    if (language === 'en') return `English's voice ("${id}") is the Voice under Greeting (Female or Male); choose voices here for the other caller languages.`;
    if (!allowed.includes(language)) return `${name} is not a ticked caller language, so it cannot have a voice ("${id}"). Tick ${name} under Caller Languages first.`;
    const own = voicesOf(language);
    if (own.some((v) => v.id === id)) continue;
    const choices = `Choose from ${own.map((v) => `"${v.id}"`).join(', ')}.`;
    const other = LANGUAGES.find((l) => l !== language && voicesOf(l).some((v) => v.id === id));
    if (other) return `"${id}" is a voice for ${ENGLISH_NAMES[other]}, not for ${name}. ${choices}`;
    return `This box has no ${name} voice "${id}". ${choices}`;
  }
  return null;
}

/** The voices an owner chose, for the languages still ticked (one unticked since is left out, as the greeting does). */
export function chosenVoices(stored: Readonly<Record<string, string>> | null | undefined, allowed: readonly LanguageCode[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [language, id] of Object.entries(stored ?? {})) if (isLanguageCode(language) && language !== 'en' && allowed.includes(language)) out[language] = id;
  return out;
}
