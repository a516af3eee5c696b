import { nationalFormat } from '../../contract/phone.js';

// What the owner hears when they pick up a put-through call (the caller never hears it).
// Fixed texts around the caller's own words: nothing here comes from a model.

/** A number read digit by digit in its usual groups: "0 7 9 1 1, 1 2 3, 4 5 6". */
export function spokenNumber(number: string): string {
  const national = nationalFormat(number);
  if (!national) return 'a withheld number';
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
  const business = o.businessName?.trim() ? ` for ${o.businessName.trim()}` : '';
  const about = aboutText(o.callerWords);
  return [`Call${business} from ${spokenNumber(o.callerNumber)}.`, about ? `They said: ${about}.` : '', 'Press 1 to take it, or 2 for voicemail.'].filter(Boolean).join(' ');
}
