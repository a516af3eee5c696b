import { englishOnly } from '../language/catalogue/en.js';

// The gas safety line: for trades that handle gas, a caller who mentions a gas smell or leak
// hears the UK gas emergency advice before anything else. A fixed text, never model output:
// it must be said the same, correct way every time. Pure; used by the phone and the preview.
// Its words are in dialogue/language/catalogue/en.ts.

/** SPEC's industries whose callers may be standing in a gas leak. */
const GAS_TRADES: ReadonlySet<string> = new Set(['plumbing', 'hvac', 'construction']);

export function handlesGas(industry: string | null | undefined): boolean {
  return GAS_TRADES.has((industry ?? '').trim().toLowerCase());
}

// "gas" near a word for smelling or escaping, either order, within a few words.
const GAS_NEAR_LEAK = /\bgas\b(?:\W+\w+){0,4}?\W+(?:smell\w*|leak\w*|escap\w*|whiff)\b|\b(?:smell\w*|leak\w*|escap\w*|whiff)(?:\W+\w+){0,4}?\W+gas\b/i;

/** The caller's words mention a gas smell or leak ("I can smell gas", "there's a gas leak"). */
export function mentionsGasLeak(words: string): boolean {
  return GAS_NEAR_LEAK.test(words);
}

/** The National Gas Emergency Service advice, read digit by digit. */
export const GAS_SAFETY_LINES = englishOnly.gasSafety;
