// What the real-PBX booking tests share about days: booking hours that make every day's first
// slot "ten o'clock", and a date as a caller says it.
import { WEEKDAYS, type OpeningSpan, type Weekday } from '../../contract/call-handling.js';

/** Booking hours every day 10:00–16:00, so the first slot of a day is "ten o'clock" whatever day the test runs. */
export const TEN_TO_FOUR_DAILY = Object.fromEntries(WEEKDAYS.map((d) => [d, [{ open: '10:00', close: '16:00' }]])) as Record<Weekday, OpeningSpan[]>;

/** "the 3rd of December", as callers say a date (core/booking/rules/wish.ts understands it). */
export function spokenDate(at: Date): string {
  const parts = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/London', day: 'numeric', month: 'long' }).formatToParts(at);
  const day = Number(parts.find((p) => p.type === 'day')!.value);
  const month = parts.find((p) => p.type === 'month')!.value;
  const suffix = day % 10 === 1 && day !== 11 ? 'st' : day % 10 === 2 && day !== 12 ? 'nd' : day % 10 === 3 && day !== 13 ? 'rd' : 'th';
  return `the ${day}${suffix} of ${month}`;
}
