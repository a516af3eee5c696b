import { nationalFormat } from '../../contract/phone.js';
import { englishOnly } from '../language/catalogue/en.js';
import { render } from '../language/render.js';

// What is said while putting a caller through: to the caller, and to the owner when they pick
// up (the caller never hears the briefing). Fixed texts around the caller's own words: nothing
// here comes from a model (the words: dialogue/language/catalogue/en.ts).

const lines = englishOnly.transfer;

/** The caller, before the owner's phone rings. */
export const PUTTING_THROUGH = lines.puttingThrough;
/** The caller, when the owner does not take the call. */
export const CANNOT_TAKE_CALL_NOW = lines.cannotTakeCallNow;
/** The owner, once more, when no key came after the briefing. */
export const PRESS_A_KEY = lines.pressAKey;

/** "Test transfer" in the console: the owner hears these around a sample briefing. */
export const TEST_INTRO = lines.testIntro;
export const TEST_DONE = lines.testDone;
/** The test call's sample caller: Ofcom's drama range, a number that can never be real. */
export const TEST_SAMPLE_CALLER = { number: '+447700900123', words: lines.testCallerWords } as const;

/** A number read digit by digit in its usual groups: "0 7 9 1 1, 1 2 3, 4 5 6". */
export function spokenNumber(number: string): string {
  const national = nationalFormat(number);
  if (!national) return lines.withheldNumber;
  const groups = national.split(/\s+/);
  // UK mobiles and most geographic numbers: the six-digit tail reads best as three and three.
  const tail = groups.length === 2 && groups[1]!.length === 6 ? [groups[1]!.slice(0, 3), groups[1]!.slice(3)] : groups.slice(1);
  return [groups[0]!, ...tail].map((g) => g.split('').join(' ')).join(', ');
}

/** At most this many words of what the caller said go into the briefing. */
const ABOUT_WORDS = 14;

/** The caller's own words, shortened: "about a leaking boiler in the kitchen…". */
export function aboutText(callerWords: string | undefined): string | undefined {
  const words = callerWords?.replace(/\s+/g, ' ').trim().split(' ').filter(Boolean) ?? [];
  if (words.length === 0) return undefined;
  const short = words.slice(0, ABOUT_WORDS).join(' ').replace(/[.,;:!?]+$/, '');
  return words.length > ABOUT_WORDS ? `${short}…` : short;
}

/**
 * "Call for Hale Plumbing from 0 7 9 1 1, 1 2 3, 4 5 6. They said: my boiler is leaking.
 * Press 1 to take it, or 2 for voicemail."
 */
export function briefingText(o: { businessName: string | null; callerNumber: string; callerWords?: string }): string {
  const business = o.businessName?.trim();
  const number = spokenNumber(o.callerNumber);
  const about = aboutText(o.callerWords);
  return [business ? render(lines.briefingNamed, { business, number }) : render(lines.briefing, { number }), about ? render(lines.briefingAbout, { about }) : '', lines.briefingKeys]
    .filter(Boolean)
    .join(' ');
}
