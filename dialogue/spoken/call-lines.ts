import type { AccountStatus } from '../../contract/api.js';

// What callers hear outside the greeting. The image's built-in sounds are the fallback when
// the TTS engine fails, so no branch ends in silence.

export const THANK_YOU = 'Thank you. Your message has been recorded. Goodbye.';
export const NO_MESSAGE_GOODBYE = "Sorry, we didn't hear a message. Please call again. Goodbye.";
export const NOT_IN_SERVICE = "We're sorry. The number you have called is not in service. Please check the number and try again. Goodbye.";

/** Spoken when the business exists but its account cannot take calls (the call is logged as missed). */
export function unavailableMessage(reason: Exclude<AccountStatus, 'active'>, businessName: string | null): string {
  const who = businessName?.trim() ? `Thank you for calling ${businessName.trim()}.` : 'Thank you for calling.';
  if (reason === 'pending_approval') return `${who} This line is not taking calls yet. Please try again later. Goodbye.`;
  return `${who} We're unable to take your call at the moment. Please try again later. Goodbye.`;
}

/**
 * Built-in sounds for when a prompt cannot be synthesised. The image ships no Asterisk
 * sound pack: these are made by deploy/asterisk/sounds.sh into its sounds/en folder
 * (test/pbx-real checks each one exists in the rendered sounds folders).
 */
export const FALLBACK_SOUNDS = {
  greeting: 'sound:appliance-greeting',
  goodbye: 'sound:appliance-goodbye',
  notInService: 'sound:appliance-not-in-service',
  puttingThrough: 'sound:appliance-putting-through',
  cannotTakeCallNow: 'sound:appliance-cannot-take-call',
  refused: 'sound:appliance-refused',
  withheldRefused: 'sound:appliance-withheld-refused',
  /** The owner's briefing without the caller's details. */
  briefing: 'sound:appliance-briefing',
} as const;

/** A caller on the owner's block list. */
export const REFUSED = "Sorry, we can't take your call. Goodbye.";
/** A withheld number, when the owner refuses them. */
export const WITHHELD_REFUSED = "Sorry, we don't take calls from withheld numbers. Please call again without withholding your number. Goodbye.";

/** The caller, before the owner's phone rings. */
export const PUTTING_THROUGH = 'Let me try to put you through.';
/** The caller, when the owner does not take the call. */
export const CANNOT_TAKE_CALL_NOW = "Sorry, they can't take your call right now.";
/** The owner, once more, when no key came after the briefing. */
export const PRESS_A_KEY = 'Press 1 to take the call, or 2 for voicemail.';

/** The tone before recording; also made by deploy/asterisk/sounds.sh. */
export const BEEP = 'sound:beep';
