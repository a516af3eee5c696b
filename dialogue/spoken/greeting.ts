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

export const RECORDING_NOTICE = englishOnly.voicemail.recordingNotice;

/**
 * What follows the owner's own recorded greeting (issue 57): the box's recording notice when the
 * spoken greeting the recording replaces tells callers the call is recorded (the business-name
 * and generic greetings do; an owner's own text may), so a recording never drops a notice callers
 * heard before. None when the owner's text says nothing of recording, as the spoken greeting
 * said nothing: the recording's own words are the owner's to choose.
 */
export function noticeAfterRecordedGreeting(owner: { callGreeting: string | null; businessName: string | null }): string | undefined {
  return /\brecord(ed|ing)\b/i.test(chooseGreeting(owner)) ? RECORDING_NOTICE : undefined;
}
