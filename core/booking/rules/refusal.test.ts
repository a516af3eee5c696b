import { describe, expect, it } from 'vitest';
import { BOOKING_DEFAULTS, type BookingRules } from './booking-rules.js';
import { bookingRefusalSentence, refusalOf } from './refusal.js';
import { isFreeSlot, type Interval } from './slots.js';

const at = (iso: string) => Date.parse(iso);
const weekdays: Partial<BookingRules['hours']> = Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri'].map((d) => [d, [{ open: '09:00', close: '17:00' }]]));
// Nine to five on weekdays, England's bank holidays, the defaults' notice, horizon and no cap.
const rules = (over: Partial<BookingRules> = {}): BookingRules =>
  ({ hours: { ...weekdays, sat: [], sun: [] } as BookingRules['hours'], holidayNations: ['england-wales'], ...BOOKING_DEFAULTS, ...over });
// Tuesday 1 December 2026, 08:00 London (GMT).
const NOW = at('2026-12-01T08:00:00Z');
const query = (over: { rules?: Partial<BookingRules>; busy?: Interval[]; booked?: Interval[] } = {}) => ({
  now: NOW, rules: rules(over.rules), service: { durationMinutes: 60, bufferMinutes: 15 }, busy: over.busy ?? [], booked: over.booked ?? [],
});
const hourAt = (iso: string): Interval => ({ start: at(iso), end: at(iso) + 3_600_000 });

describe('which rule refuses a time', () => {
  it.each([
    ['too soon (within the two hours\' notice)', '2026-12-01T09:30:00Z', query(), 'too-soon'],
    ['past how far ahead bookings are taken', '2026-12-15T10:00:00Z', query(), 'too-far'],
    ['a bank holiday (Christmas Day is past the horizon, so a 30-day one)', '2026-12-25T10:00:00Z', query({ rules: { horizonDays: 30 } }), 'bank-holiday'],
    ['a Saturday, with no hours', '2026-12-05T10:00:00Z', query(), 'outside-hours'],
    ['an hour that would run past closing', '2026-12-02T16:30:00Z', query(), 'outside-hours'],
    ['a quarter past, between the half-hourly times', '2026-12-02T10:15:00Z', query(), 'between-times'],
    ['a day with its one booking', '2026-12-02T14:00:00Z', query({ rules: { dailyCap: 1 }, booked: [hourAt('2026-12-02T09:00:00Z')] }), 'day-full'],
    ['the time of another booking', '2026-12-02T10:00:00Z', query({ booked: [hourAt('2026-12-02T10:30:00Z')] }), 'overlaps-booking'],
    ['a time whose buffer runs into the next booking', '2026-12-02T10:00:00Z', query({ booked: [hourAt('2026-12-02T11:00:00Z')] }), 'overlaps-booking'],
    ['something in the owner\'s calendar', '2026-12-02T10:00:00Z', query({ busy: [hourAt('2026-12-02T10:00:00Z')] }), 'calendar-busy'],
  ] as const)('%s', (_name, start, q, rule) => {
    expect(refusalOf(q, at(start))).toBe(rule);
    expect(isFreeSlot(q, at(start))).toBe(false);
  });

  it('refuses nothing the slot engine offers, and only what it does not, across a week of quarter hours', () => {
    const q = query({ rules: { dailyCap: 2 }, booked: [hourAt('2026-12-02T09:00:00Z'), hourAt('2026-12-02T13:00:00Z'), hourAt('2026-12-03T11:00:00Z')], busy: [hourAt('2026-12-04T10:00:00Z')] });
    let free = 0;
    for (let t = NOW; t < NOW + 7 * 86_400_000; t += 15 * 60_000) {
      const offered = isFreeSlot(q, t);
      if (offered) free++;
      expect(refusalOf(q, t) === null, new Date(t).toISOString()).toBe(offered);
    }
    expect(free).toBeGreaterThan(20);
  });

  it('says each rule in everyday words with the owner\'s figures', () => {
    const figures = { noticeMinutes: 24 * 60, horizonDays: 1, dailyCap: 3 };
    expect(bookingRefusalSentence('too-soon', figures)).toBe('That time is too soon: you take bookings at least 1 day ahead. Pick a later time.');
    expect(bookingRefusalSentence('too-far', figures)).toBe('That time is too far ahead: you take bookings up to 1 day ahead. Pick an earlier time.');
    expect(bookingRefusalSentence('day-full', figures)).toBe('That day is full: you take at most 3 bookings a day. Pick another day.');
    expect(bookingRefusalSentence('too-soon', { ...figures, noticeMinutes: 90 })).toBe('That time is too soon: you take bookings at least 90 minutes ahead. Pick a later time.');
  });
});
