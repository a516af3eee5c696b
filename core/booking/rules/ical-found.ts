import { shortWhen } from '../../../dialogue/language/dates.js';
import { DAY_MS } from '../../time/london-time.js';
import type { Interval } from './slots.js';

// What the owner is told when a pasted iCal address is saved: the box read it once, and says
// what it found, so an address that reads as an empty calendar (the wrong one pasted, or a
// public address that hides event times) is noticed at once rather than at the first double booking.

/** How far ahead the count looks: about the horizon owners take bookings over. */
const FOUND_WINDOW_DAYS = 28;

export function icalFoundSentence(busy: readonly Interval[], now: number): string {
  const ahead = busy.filter((b) => b.end > now && b.start < now + FOUND_WINDOW_DAYS * DAY_MS).sort((a, b) => a.start - b.start);
  const first = ahead[0];
  if (!first) return `Your calendar was read: nothing is busy in the next ${FOUND_WINDOW_DAYS / 7} weeks. If that is wrong, check you pasted the address of the calendar you use.`;
  const count = ahead.length === 1 ? '1 busy time' : `${ahead.length} busy times`;
  const next = first.start <= now ? 'one now' : `the next ${shortWhen(new Date(first.start))}`;
  return `Your calendar was read: ${count} in the next ${FOUND_WINDOW_DAYS / 7} weeks, ${next}. Those times are not offered to callers.`;
}
