import { englishOnly } from '../language/catalogue/en.js';
import { render } from '../language/render.js';

// Shared by the voicemail flow (pbx) and the console's "Play greeting" preview (core), so both say the same words.
// SPEC.md §2 Call Greeting: custom greeting, else the business-name template, else a
// generic default (the words: dialogue/language/catalogue/en.ts).

export const GENERIC_GREETING = englishOnly.voicemail.genericGreeting;

export function businessGreeting(businessName: string): string {
  return render(englishOnly.voicemail.businessGreeting, { business: businessName });
}

export function chooseGreeting(owner: { callGreeting: string | null; businessName: string | null }): string {
  const custom = owner.callGreeting?.trim();
  if (custom) return custom;
  const name = owner.businessName?.trim();
  if (name) return businessGreeting(name);
  return GENERIC_GREETING;
}
