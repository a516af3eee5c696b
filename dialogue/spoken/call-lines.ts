import type { AccountStatus } from '../../contract/api.js';

// What callers hear outside the greeting. The image's built-in sounds (./sounds.ts) are the
// fallback when the TTS engine fails, so no branch ends in silence.

export const THANK_YOU = 'Thank you. Your message has been recorded. Goodbye.';
export const NO_MESSAGE_GOODBYE = "Sorry, we didn't hear a message. Please call again. Goodbye.";
export const NOT_IN_SERVICE = "We're sorry. The number you have called is not in service. Please check the number and try again. Goodbye.";

/** Spoken when the business exists but its account cannot take calls (the call is logged as missed). */
export function unavailableMessage(reason: Exclude<AccountStatus, 'active'>, businessName: string | null): string {
  const who = businessName?.trim() ? `Thank you for calling ${businessName.trim()}.` : 'Thank you for calling.';
  if (reason === 'pending_approval') return `${who} This line is not taking calls yet. Please try again later. Goodbye.`;
  return `${who} We're unable to take your call at the moment. Please try again later. Goodbye.`;
}

/** A caller on the owner's block list. */
export const REFUSED = "Sorry, we can't take your call. Goodbye.";
/** A withheld number, when the owner refuses them. */
export const WITHHELD_REFUSED = "Sorry, we don't take calls from withheld numbers. Please call again without withholding your number. Goodbye.";
