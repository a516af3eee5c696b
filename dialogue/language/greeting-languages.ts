import { fixedLines } from './fixed-lines.js';
import { ENGLISH_NAMES, isLanguageCode, type LanguageCode } from './languages.js';

// The agent's greeting in more than one language (issue 42): an owner in Wales greets in
// English and Welsh, in the order they choose. Each is the project's own greeting line for
// that language (fixed-lines.ts), disclosure included, never the model's. English must be
// one of them: the conversation answers in English until the caller's words say otherwise.

/** An owner's greeting languages as stored (`users.greeting_languages`, codes joined by commas); English alone when unset. */
export function parseGreetingLanguages(stored: string | null | undefined): LanguageCode[] {
  const out: LanguageCode[] = [];
  for (const c of stored?.split(',') ?? []) if (isLanguageCode(c) && !out.includes(c)) out.push(c);
  return out.length ? out : ['en'];
}

/**
 * What is wrong with greeting languages an owner chose, in words for the console; null when
 * they are fine. `allowed`: the caller languages ticked (a greeting in a language the agent
 * would not then answer in would invite a conversation it cannot hold).
 */
export function greetingLanguagesProblem(codes: readonly string[], allowed: readonly LanguageCode[]): string | null {
  const unknown = codes.filter((c) => !isLanguageCode(c));
  if (unknown.length) return `greetingLanguages: the agent does not speak ${unknown.map((c) => `"${c}"`).join(', ')}.`;
  if (new Set(codes).size !== codes.length) return 'greetingLanguages: name each language once.';
  if (!codes.includes('en')) return 'The greeting must include English: callers are answered in English until they speak another language.';
  const off = (codes as LanguageCode[]).filter((c) => !allowed.includes(c));
  if (off.length) return `Tick ${off.map((c) => ENGLISH_NAMES[c]).join(' and ')} under Caller Languages to greet callers in it.`;
  return null;
}

/** The greeting's languages as spoken, in the owner's order; one no longer allowed (unticked since) is left out. */
export function spokenGreetingLanguages(languages: readonly LanguageCode[], allowed: readonly LanguageCode[]): LanguageCode[] {
  const spoken = languages.filter((l) => l === 'en' || allowed.includes(l));
  return spoken.length ? spoken : ['en'];
}

/** How the owner's own recording of a greeting line appears in the call's transcript. */
export const RECORDED_GREETING_TRANSCRIPT = "(the owner's recorded greeting)";

/** One part of the greeting: a line spoken by TTS, or the owner's recording (`recording`: its file) with `text` what the transcript shows. */
export interface GreetingPart {
  language: LanguageCode;
  text: string;
  recording?: string;
}

/**
 * The greeting as spoken: one line per language, in the owner's order. A language the owner
 * recorded (`recordings`: language → file) plays the recording and then the project's own
 * disclosure sentence in that language: the caller must hear that the assistant is automated
 * and the call recorded, and nothing checks that an owner's recording says so.
 */
export function greetingLines(
  languages: readonly LanguageCode[],
  allowed: readonly LanguageCode[],
  businessName: string | null | undefined,
  recordings: Readonly<Partial<Record<LanguageCode, string>>> = {},
): GreetingPart[] {
  return spokenGreetingLanguages(languages, allowed).flatMap((language): GreetingPart[] => {
    const lines = fixedLines(language);
    const recording = recordings[language];
    return recording ? [{ language, text: RECORDED_GREETING_TRANSCRIPT, recording }, { language, text: lines.disclosure }] : [{ language, text: lines.greeting(businessName) }];
  });
}
