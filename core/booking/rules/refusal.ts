import { WEEKDAYS } from '../../../contract/call-handling.js';
import type { RefusalRule } from '../../../contract/schemas/booking.js';
import { isBankHoliday } from '../../call-handling/holidays.js';
import { toMinute } from '../../call-handling/schedule.js';
import { DAY_MS, dayNumberToDate } from '../../time/london-time.js';
import { londonWall, weekdayOfDay } from './london-wall.js';
import { countByDay, mergeIntervals, overlapsAny, type SlotQuery } from './slots.js';

// Which of the owner's rules refuses one start (issue 57, item 3): the slot engine says only
// "not offered" or "taken"; the owner moving a booking is told the rule, in everyday words
// (bookingRefusalSentence). Checked in the order an owner would look: when, then the day,
// then what is already there. Null exactly when the slot engine would offer the start.

export function refusalOf(q: Omit<SlotQuery, 'wish' | 'limit' | 'after'>, start: number): RefusalRule | null {
  if (start < q.now + q.rules.noticeMinutes * 60_000) return 'too-soon';
  const latest = q.now + q.rules.horizonDays * DAY_MS;
  if (start >= latest) return 'too-far';
  const { day, minute } = londonWall(start);
  if (isBankHoliday(q.rules.holidayNations, dayNumberToDate(day))) return 'bank-holiday';
  const step = q.stepMinutes ?? 30;
  const spans = q.rules.hours[WEEKDAYS[weekdayOfDay(day)]!].filter((span) => {
    const close = span.close === '23:59' ? 24 * 60 : toMinute(span.close);
    return toMinute(span.open) <= minute && minute + q.service.durationMinutes <= close;
  });
  if (spans.length === 0) return 'outside-hours';
  if (!spans.some((span) => (minute - toMinute(span.open)) % step === 0)) return 'between-times';
  if (q.rules.dailyCap !== null && (countByDay(q.booked).get(day) ?? 0) >= q.rules.dailyCap) return 'day-full';
  const end = start + (q.service.durationMinutes + q.service.bufferMinutes) * 60_000;
  if (overlapsAny(mergeIntervals(q.booked), start, end)) return 'overlaps-booking';
  if (overlapsAny(mergeIntervals(q.busy), start, end)) return 'calendar-busy';
  return null;
}

/** The refusal in everyday words, with the owner's own figures, for the console to show as is. */
export function bookingRefusalSentence(rule: RefusalRule, rules: { noticeMinutes: number; horizonDays: number; dailyCap: number | null }): string {
  switch (rule) {
    case 'too-soon': return `That time is too soon: you take bookings at least ${noticeWords(rules.noticeMinutes)} ahead. Pick a later time.`;
    case 'too-far': return `That time is too far ahead: you take bookings up to ${rules.horizonDays} ${rules.horizonDays === 1 ? 'day' : 'days'} ahead. Pick an earlier time.`;
    case 'bank-holiday': return 'That day is a bank holiday, when you take no bookings. Pick another day.';
    case 'outside-hours': return 'That time is outside your booking hours (the whole booking must fit inside them). Pick another time.';
    case 'between-times': return 'That time falls between your booking times, which start every 30 minutes from when you open. Pick one of the free times.';
    case 'day-full': return `That day is full: you take at most ${rules.dailyCap ?? 0} ${rules.dailyCap === 1 ? 'booking' : 'bookings'} a day. Pick another day.`;
    case 'overlaps-booking': return 'That time overlaps another booking (or the time you leave after it). Pick another time.';
    case 'calendar-busy': return 'Your calendar has something else then. Pick another time.';
  }
}

function noticeWords(minutes: number): string {
  if (minutes % (24 * 60) === 0) return plural(minutes / (24 * 60), 'day');
  if (minutes % 60 === 0) return plural(minutes / 60, 'hour');
  return plural(minutes, 'minute');
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
