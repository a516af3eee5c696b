// Issue 59 (PCI DSS 4.0.1): the box must never hear back, say or store a card number. A caller
// may still read one out; this pure guard finds what looks like one (13 to 19 digits, spaces or
// dashes between, passing the Luhn check) and replaces it, in what the agent says and in the
// transcript the box keeps. A phone number (11 digits) or a booking's date never matches.

export const CARD_REMOVED = '[card number removed]';

/** A run of digits with single spaces or dashes between them, 13 or more digits long. */
const DIGIT_RUN = /\d(?:[ -]?\d){12,}/g;

/** The Luhn check every payment card number passes. */
export function passesLuhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

const looksLikeCard = (run: string): boolean => {
  const digits = run.replace(/[ -]/g, '');
  return digits.length >= 13 && digits.length <= 19 && passesLuhn(digits);
};

/**
 * The text with every card-like number replaced by "[card number removed]". A run is checked by
 * its 13–19 digit windows too, so a card read out straight after other digits is caught: the
 * guard would rather remove a long number that was not a card than keep one that was.
 */
export function redactCardNumbers(text: string): string {
  return text.replace(DIGIT_RUN, (run) => (looksLikeCard(run) || holdsCardWindow(run.replace(/[ -]/g, '')) ? CARD_REMOVED : run));
}

/** Some 13–19 digits within the run pass as a card. */
function holdsCardWindow(digits: string): boolean {
  for (let len = 13; len <= 19; len++) {
    for (let at = 0; at + len <= digits.length; at++) if (passesLuhn(digits.slice(at, at + len))) return true;
  }
  return false;
}

/** Whether a text holds anything the guard would remove. */
const holdsCardNumber = (text: string): boolean => redactCardNumbers(text) !== text;

/**
 * A caller offering to pay by card on the phone ("can I pay by card now?", "I'll give you my
 * card details"): they are told the texted link is the only way.
 */
export function offersCardOnPhone(callerText: string): boolean {
  const t = callerText.toLowerCase();
  if (holdsCardNumber(callerText)) return true;
  return /\b(card (details|number)|long number on (my|the) card|(pay|paying|payment)\b[^.?!]{0,30}\b(card|debit|credit|over the phone|now))\b/.test(t)
    || /\b(take|give|read)\b[^.?!]{0,20}\b(my )?card\b/.test(t);
}
