// What the agent says about a deposit (issue 59): that the time is held, how much, and that the
// link comes by text; it never asks for card details. English for now: the other languages'
// catalogues (dialogue/language) do not have these lines yet, and an English line beats none.

/** "£20", "£12.50", "£1,000". */
const amount = (pence: number) => `£${(pence / 100).toLocaleString('en-GB', { minimumFractionDigits: pence % 100 === 0 ? 0 : 2, maximumFractionDigits: 2 })}`;

/** "30 minutes", "an hour", "2 hours", "90 minutes". */
export function spokenHold(minutes: number): string {
  if (minutes % 60 !== 0) return `${minutes} minutes`;
  const hours = minutes / 60;
  return hours === 1 ? 'an hour' : `${hours} hours`;
}

/** A booking held for its deposit. */
export const depositHeld = (pence: number, holdMinutes: number) =>
  `That time is held for you for ${spokenHold(holdMinutes)}: it needs a ${amount(pence)} deposit, and I'm texting you a link to pay it now.`;

/** After the held line, as after a booking. */
export const ANYTHING_ELSE = 'Is there anything else I can help with?';

/** A caller who cannot be texted the link (landline, withheld, STOP): no hold, a request instead. */
export const depositUntextable = (pence: number) =>
  `That booking needs a ${amount(pence)} deposit, paid by a link I send by text, and I can't text this number, so I'll ask the business to confirm the booking with you.`;

/** Stripe could not make the link: no hold, a request instead. */
export const DEPOSIT_UNAVAILABLE = "I can't hold that time just now, so I'll ask the business to confirm the booking with you.";

/** A caller who offers to pay by card on the phone. */
export const CARD_LINK_ONLY = "I can't take card details on the phone; the text has a secure link.";
