// The gas safety line: for trades that handle gas, a caller who mentions a gas smell or leak
// hears the UK gas emergency advice before anything else. A fixed text, never model output:
// it must be said the same, correct way every time. Pure; used by the phone and the preview.

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
export const GAS_SAFETY_LINES = [
  'If you can smell gas, please act now.',
  "Open doors and windows, don't use light switches or anything electrical, don't smoke or use a naked flame, and turn the gas off at the meter if you can.",
  'Leave the building and call the National Gas Emergency number: 0 8 0 0, 1 1 1, 9 9 9.',
  'In Northern Ireland, call 0 8 0 0, 0 0 2, 0 0 1.',
] as const;
