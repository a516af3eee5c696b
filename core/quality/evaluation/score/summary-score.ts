import type { Urgency } from '../../../../dialogue/summary/summary.js';
import type { EvalMessage } from '../set.js';
import { nameMatches } from './names.js';
import { isNumberToken, normaliseWords } from './normalise.js';

// How well one summary carries the facts its message holds. Each field is right or wrong
// (or not scored, when the message has nothing for it), judged from the summary's text and
// urgency alone: what the owner's text message would say.

export const SUMMARY_FIELDS = ['callerName', 'callbackNumber', 'wants', 'urgency', 'booking'] as const;
type SummaryField = (typeof SUMMARY_FIELDS)[number];

export interface SummaryOutput {
  text: string;
  urgency: Urgency;
}

/** true: right; false: wrong; null: not scored for this message. */
export type SummaryFieldScores = Record<SummaryField, boolean | null>;

/**
 * Words that say the caller wants a booking (an appointment, a visit). Scored only where the
 * caller asked for one: a summary of "I am cancelling my appointment" names an appointment
 * too, so the words cannot tell a summary that invented a booking from one that did not.
 */
const BOOKING_WORDS = /\b(book|booking|booked|appointment|visit|consultation|come (?:out|round|over|and)|bring (?:him|her|it|them) in|see (?:me|him|her|them))\b/i;

/** The digits of a UK number in national form ("+44 7700 900123" → "07700900123"). */
const nationalDigits = (n: string) => normaliseWords(n).join('');

export function scoreSummary(m: EvalMessage, out: SummaryOutput): SummaryFieldScores {
  const words = normaliseWords(out.text);
  const phoneNumbers = words.filter((w) => isNumberToken(w) && w.length >= 7);
  const callerId = m.callerId ? nationalDigits(m.callerId) : null;
  return {
    // A message whose caller gave no name has no name to carry.
    callerName: m.facts.callerName ? nameMatches(m.facts.callerName, out.text) : null,
    // With a number given it must be there, every digit; without one, the summary may cite the caller ID but no other number.
    callbackNumber: m.facts.callbackNumber
      ? phoneNumbers.includes(nationalDigits(m.facts.callbackNumber))
      : phoneNumbers.every((n) => n === callerId),
    wants: m.facts.wants.every((w) => mentions(words, w)),
    urgency: out.urgency === m.facts.urgency,
    booking: m.facts.booking ? BOOKING_WORDS.test(out.text) : null,
  };
}

/** Whether `words` hold `want`'s words in a row, its last word as the start of one ("servic" → "servicing"). */
function mentions(words: string[], want: string): boolean {
  const w = normaliseWords(want);
  if (w.length === 0) return true;
  for (let i = 0; i + w.length <= words.length; i++) {
    if (w.every((x, k) => (k === w.length - 1 ? words[i + k]!.startsWith(x) : words[i + k] === x))) return true;
  }
  return false;
}
