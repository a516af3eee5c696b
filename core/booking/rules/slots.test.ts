import { describe, expect, it } from 'vitest';
import { findSlots, isFreeSlot, slotVerdict, type Interval } from './slots.js';
import type { BookingRules } from './booking-rules.js';
import { parseWish } from './wish.js';
import { shortWhen, spokenWhen } from '../../../dialogue/language/dates.js';

const at = (iso: string) => Date.parse(iso);
const iso = (i: Interval) => new Date(i.start).toISOString();
const nine = () => [{ open: '09:00', close: '17:00' }];
const rules = (over: Partial<BookingRules> = {}): BookingRules => ({
  hours: { mon: nine(), tue: nine(), wed: nine(), thu: nine(), fri: nine(), sat: [], sun: [] },
  holidayNations: ['england-wales'],
  noticeMinutes: 120,
  horizonDays: 14,
  dailyCap: null,
  ...over,
});
const hour = { durationMinutes: 60, bufferMinutes: 0 };
const slots = (now: string, wish: string, over: Partial<Parameters<typeof findSlots>[0]> = {}) =>
  findSlots({ now: at(now), rules: rules(), service: hour, busy: [], booked: [], wish: parseWish(wish, at(now)), ...over }).map(iso);

describe('slots across the clock changes (Europe/London)', () => {
  it('offers 9 a.m. London on the Monday after the clocks go forward, which is 08:00 UTC', () => {
    // Friday 27 March 2026, GMT; the clocks go forward on Sunday the 29th.
    expect(slots('2026-03-27T09:00:00Z', 'Monday morning')).toEqual(['2026-03-30T08:00:00.000Z', '2026-03-30T08:30:00.000Z', '2026-03-30T09:00:00.000Z']);
  });

  it('offers 9 a.m. London on the Monday after the clocks go back, which is 09:00 UTC', () => {
    expect(slots('2026-10-23T08:00:00Z', 'Monday morning')).toEqual(['2026-10-26T09:00:00.000Z', '2026-10-26T09:30:00.000Z', '2026-10-26T10:00:00.000Z']);
    // Friday after four, the last hour before closing: 16:00 summer time (15:00 UTC), then a week
    // later 16:00 GMT (16:00 UTC).
    expect(slots('2026-10-21T08:00:00Z', 'friday after four')).toEqual(['2026-10-23T15:00:00.000Z', '2026-10-30T16:00:00.000Z']);
  });

  it('opens on the change Sundays at the local hours', () => {
    const sunday = rules({ hours: { ...rules().hours, sun: [{ open: '09:00', close: '11:00' }] } });
    expect(slots('2026-03-27T09:00:00Z', 'sunday', { rules: sunday })).toEqual(['2026-03-29T08:00:00.000Z', '2026-03-29T08:30:00.000Z', '2026-03-29T09:00:00.000Z']);
    expect(slots('2026-10-23T09:00:00Z', 'sunday', { rules: sunday })).toEqual(['2026-10-25T09:00:00.000Z', '2026-10-25T09:30:00.000Z', '2026-10-25T10:00:00.000Z']);
  });

  it('reads a slot back in London time either side of the change', () => {
    expect(spokenWhen(new Date('2026-03-30T08:00:00Z'))).toBe("Monday the 30th of March at nine o'clock");
    expect(spokenWhen(new Date('2026-10-26T09:00:00Z'))).toBe("Monday the 26th of October at nine o'clock");
    expect(shortWhen(new Date('2026-03-30T13:30:00Z'))).toBe('Mon 30 Mar, 14:30');
  });
});

describe('the rules', () => {
  it('skips bank holidays (Good Friday and Easter Monday 2026)', () => {
    expect(slots('2026-04-02T16:00:00Z', 'morning')).toEqual(['2026-04-07T08:00:00.000Z', '2026-04-07T08:30:00.000Z', '2026-04-07T09:00:00.000Z']);
  });

  it('keeps the minimum notice', () => {
    // Tuesday 10:00 GMT with 2 h notice: noon is the first.
    expect(slots('2026-12-01T10:00:00Z', 'today')).toEqual(['2026-12-01T12:00:00.000Z', '2026-12-01T12:30:00.000Z', '2026-12-01T13:00:00.000Z']);
    expect(slots('2026-12-01T10:00:00Z', 'today', { rules: rules({ noticeMinutes: 0 }) })[0]).toBe('2026-12-01T10:00:00.000Z');
  });

  it('offers nothing past the horizon', () => {
    expect(slots('2026-12-01T10:00:00Z', 'the 16th of December')).toEqual([]);
    // 14 days from 10:00 on the 1st ends at 10:00 on the 15th.
    expect(slots('2026-12-01T10:00:00Z', 'the 15th of December')).toEqual(['2026-12-15T09:00:00.000Z', '2026-12-15T09:30:00.000Z']);
  });

  it('closes a day that has reached its cap', () => {
    const booked = [{ start: at('2026-12-02T09:00:00Z'), end: at('2026-12-02T10:00:00Z') }];
    expect(slots('2026-12-01T18:00:00Z', 'morning', { booked, rules: rules({ dailyCap: 1 }) })).toEqual(['2026-12-03T09:00:00.000Z', '2026-12-03T09:30:00.000Z', '2026-12-03T10:00:00.000Z']);
    expect(slots('2026-12-01T18:00:00Z', 'morning', { booked, rules: rules({ dailyCap: 2 }) })[0]).toBe('2026-12-02T10:00:00.000Z');
  });

  it('keeps each booking\'s buffer free, before the next booking and the calendar', () => {
    const buffered = { durationMinutes: 60, bufferMinutes: 30 };
    // A booking 09:00–10:30 with its buffer; a calendar event from 12:00.
    const booked = [{ start: at('2026-12-02T09:00:00Z'), end: at('2026-12-02T10:30:00Z') }];
    const busy = [{ start: at('2026-12-02T12:00:00Z'), end: at('2026-12-02T16:00:00Z') }];
    expect(slots('2026-12-01T18:00:00Z', 'wednesday', { service: buffered, booked, busy })).toEqual(['2026-12-02T10:30:00.000Z', '2026-12-02T16:00:00.000Z', '2026-12-09T09:00:00.000Z']);
  });

  it('offers only after the slots a caller refused', () => {
    expect(slots('2026-12-01T18:00:00Z', 'wednesday', { after: at('2026-12-02T10:00:00Z') })[0]).toBe('2026-12-02T10:30:00.000Z');
  });

  it('checks one start against fresh data for the claim', () => {
    const q = { now: at('2026-12-01T18:00:00Z'), rules: rules(), service: hour, busy: [], booked: [] };
    expect(isFreeSlot(q, at('2026-12-02T10:00:00Z'))).toBe(true);
    expect(isFreeSlot({ ...q, booked: [{ start: at('2026-12-02T09:30:00Z'), end: at('2026-12-02T10:30:00Z') }] }, at('2026-12-02T10:00:00Z'))).toBe(false);
    // Off the grid or outside hours is never free.
    expect(isFreeSlot(q, at('2026-12-02T10:10:00Z'))).toBe(false);
    expect(isFreeSlot(q, at('2026-12-02T16:30:00Z'))).toBe(false);
  });

  it('tells a start the rules never offer from one something holds, for the claim\'s 400 and 409', () => {
    const q = { now: at('2026-12-01T18:00:00Z'), rules: rules({ dailyCap: 1 }), service: hour, busy: [], booked: [] };
    const wednesday10 = at('2026-12-02T10:00:00Z');
    expect(slotVerdict(q, wednesday10)).toBe('free');
    // The rules alone: off the grid, after hours, a Saturday, inside the notice.
    expect(['2026-12-02T10:10:00Z', '2026-12-02T16:30:00Z', '2026-12-05T10:00:00Z', '2026-12-01T19:00:00Z'].map((t) => slotVerdict(q, at(t)))).toEqual(['not-offered', 'not-offered', 'not-offered', 'not-offered']);
    // Held: the calendar, a booking, or the day's cap reached by a booking elsewhere in the day.
    expect(slotVerdict({ ...q, busy: [{ start: wednesday10, end: wednesday10 + 30 * 60_000 }] }, wednesday10)).toBe('taken');
    expect(slotVerdict({ ...q, booked: [{ start: at('2026-12-02T09:30:00Z'), end: at('2026-12-02T10:30:00Z') }] }, wednesday10)).toBe('taken');
    expect(slotVerdict({ ...q, booked: [{ start: at('2026-12-02T14:00:00Z'), end: at('2026-12-02T15:00:00Z') }] }, wednesday10)).toBe('taken');
  });
});

describe("the caller's wish", () => {
  // Tuesday 1 December 2026, 10:00 London.
  const now = at('2026-12-01T10:00:00Z');
  const day = (iso: string) => Math.floor(at(iso) / 86_400_000);

  it('understands days', () => {
    expect(parseWish('tomorrow please', now)).toEqual({ fromDay: day('2026-12-02'), toDay: day('2026-12-02') });
    expect(parseWish('next week', now)).toEqual({ fromDay: day('2026-12-07'), toDay: day('2026-12-13') });
    expect(parseWish('Thursday or Friday', now)).toEqual({ weekdays: [3, 4] });
    expect(parseWish('the 3rd of December', now)).toEqual({ fromDay: day('2026-12-03'), toDay: day('2026-12-03') });
    expect(parseWish('January 5th', now)).toEqual({ fromDay: day('2027-01-05'), toDay: day('2027-01-05') });
    expect(parseWish('anything at the weekend', now)).toEqual({ weekdays: [5, 6] });
  });

  it('understands times of day', () => {
    expect(parseWish('Tuesday morning', now)).toEqual({ weekdays: [1], fromMinute: 0, toMinute: 720 });
    expect(parseWish('after five', now)).toEqual({ fromMinute: 17 * 60 });
    expect(parseWish('before 10am', now)).toEqual({ toMinute: 600 });
    expect(parseWish('after half past two', now)).toEqual({ fromMinute: 14 * 60 + 30 });
    expect(parseWish('between 2 and 4', now)).toEqual({ fromMinute: 14 * 60, toMinute: 16 * 60 });
    expect(parseWish('at ten', now)).toEqual({ fromMinute: 600, toMinute: 660 });
    expect(parseWish('after lunch tomorrow', now)).toEqual({ fromDay: day('2026-12-02'), toDay: day('2026-12-02'), fromMinute: 780 });
  });

  it('does not narrow on words it does not know', () => {
    expect(parseWish('whenever suits, I am flexible', now)).toEqual({});
  });
});
