import { formatPhone } from '../../contract/phone-display.js';
import { spokenNumber } from '../../dialogue/spoken/transfer.js';

// What the box says when a call-back does not reach the caller (issue 56): the text after a try
// rang out or was busy, and the message left on an answering machine. Fixed words, never a
// model's. The machine's message may be heard by anyone in the house, so it names only the
// business and its number: never the caller's name, number or what they called about.

/** The text to the caller after a try that rang out or was busy; the number as the box shows numbers. */
export function noAnswerText(businessNumber: string): string {
  return `We tried to ring you back; reply CALL for another try or call us on ${formatPhone(businessNumber)}.`;
}

/**
 * The message the agent leaves on an answering machine: who is calling (the business, and that
 * it is its automated assistant), that it was a call-back, and the number to ring, read digit by
 * digit as the put-through briefing reads numbers.
 */
export function answeringMachineMessage(businessName: string | null, businessNumber: string): string {
  const business = businessName?.trim() || 'the business';
  return `Hello, this is the automated assistant for ${business}, returning a call as asked. Please ring us back on ${spokenNumber(businessNumber)} when it suits you. Thank you, goodbye.`;
}
