import { describe, expect, it } from 'vitest';
import { agreedTime, type AgreedTimeQuery } from './agreed-time.js';
import type { BusinessHours } from './open-moment.js';

// Monday to Friday, 09:00 to 17:30 London; England and Wales' bank holidays closed.
const weekday = () => [{ open: '09:00', close: '17:30' }];
const HOURS: BusinessHours = {
  hours: { mon: weekday(), tue: weekday(), wed: weekday(), thu: weekday(), fri: weekday(), sat: [], sun: [] },
  holidayNations: ['england-wales'],
};

const agree = (words: string, nowIso: string, over: Partial<AgreedTimeQuery> = {}) => {
  const r = agreedTime({ words, now: new Date(nowIso), hours: HOURS, ...over });
  return { at: r.at?.toISOString() ?? null, said: r.said };
};

// Thursday 3 December 2026 is GMT: London time is UTC.
describe('the time a call-back is agreed for', () => {
  it('"after four" in the morning is four today', () => {
    expect(agree('can someone call me after four?', '2026-12-03T10:00:00Z')).toEqual({
      at: '2026-12-03T16:00:00.000Z',
      said: "I'll ring you back at 4pm today from this number.",
    });
  });

  it('"after four" said at five is four tomorrow, never now', () => {
    expect(agree('after four', '2026-12-03T17:00:00Z')).toEqual({ at: '2026-12-04T16:00:00.000Z', said: "I'll ring you back at 4pm tomorrow from this number." });
  });

  it('"after four" said at five on a Friday is four on Monday, the next day open then', () => {
    expect(agree('after four please', '2026-12-04T17:00:00Z')).toEqual({ at: '2026-12-07T16:00:00.000Z', said: "I'll ring you back at 4pm on Monday from this number." });
  });

  it('"after seven", after closing every day, is the next open moment after it', () => {
    expect(agree('after seven', '2026-12-03T10:00:00Z').at).toBe('2026-12-04T09:00:00.000Z');
  });

  it('"ring me back at 2" is two; "around two" is two too, not the hour before', () => {
    expect(agree('ring me back at 2', '2026-12-03T10:00:00Z')).toEqual({ at: '2026-12-03T14:00:00.000Z', said: "I'll ring you back at 2pm today from this number." });
    expect(agree('around two', '2026-12-03T10:00:00Z').at).toBe('2026-12-03T14:00:00.000Z');
    expect(agree('at half past two', '2026-12-03T10:00:00Z')).toEqual({ at: '2026-12-03T14:30:00.000Z', said: "I'll ring you back at 2:30pm today from this number." });
  });

  it('"tomorrow morning" is the opening tomorrow', () => {
    expect(agree('tomorrow morning', '2026-12-03T10:00:00Z')).toEqual({ at: '2026-12-04T09:00:00.000Z', said: "I'll ring you back at 9am tomorrow from this number." });
  });

  it('"this afternoon" is midday, or once the owner\'s window is over when it is already afternoon', () => {
    expect(agree('this afternoon', '2026-12-03T10:00:00Z')).toEqual({ at: '2026-12-03T12:00:00.000Z', said: "I'll ring you back at 12 noon today from this number." });
    expect(agree('this afternoon', '2026-12-03T14:00:00Z').at).toBe('2026-12-03T14:15:00.000Z');
  });

  it('"this evening" after closing is the next opening, said back as such', () => {
    expect(agree('this evening', '2026-12-03T17:20:00Z')).toEqual({ at: '2026-12-04T09:00:00.000Z', said: "I'll ring you back at 9am tomorrow from this number." });
  });

  it('"Monday" is Monday\'s opening; a date past the week is said with its date', () => {
    expect(agree('Monday', '2026-12-03T10:00:00Z')).toEqual({ at: '2026-12-07T09:00:00.000Z', said: "I'll ring you back at 9am on Monday from this number." });
    expect(agree('the 21st of December', '2026-12-03T10:00:00Z')).toEqual({
      at: '2026-12-21T09:00:00.000Z',
      said: "I'll ring you back at 9am on Monday the 21st of December from this number.",
    });
  });

  it('"in an hour" is an hour from now, or the next opening when that is after closing', () => {
    expect(agree('in an hour', '2026-12-03T10:20:00Z')).toEqual({ at: '2026-12-03T11:20:00.000Z', said: "I'll ring you back at 11:20am today from this number." });
    expect(agree('in half an hour', '2026-12-03T10:20:00Z').at).toBe('2026-12-03T10:50:00.000Z');
    expect(agree('in an hour', '2026-12-03T17:00:00Z').at).toBe('2026-12-04T09:00:00.000Z');
  });

  it('"as soon as you can", "now" or nothing is the owner\'s window (15 minutes unless set), then the next open moment', () => {
    expect(agree('as soon as you can', '2026-12-03T10:00:00Z').at).toBe('2026-12-03T10:15:00.000Z');
    expect(agree('now', '2026-12-03T10:00:00Z', { ownerWindowMinutes: 30 }).at).toBe('2026-12-03T10:30:00.000Z');
    expect(agree('', '2026-12-03T17:20:00Z')).toEqual({ at: '2026-12-04T09:00:00.000Z', said: "I'll ring you back at 9am tomorrow from this number." });
  });

  it('keeps to the hours while the owner\'s opening-hours switch is off, and asks the owner when it never opens', () => {
    expect(agree('now', '2026-12-05T10:00:00Z').at).toBe('2026-12-07T09:00:00.000Z');
    const closed: BusinessHours = { hours: { mon: [], tue: [], wed: [], thu: [], fri: [], sat: [], sun: [] }, holidayNations: [] };
    expect(agree('after four', '2026-12-03T10:00:00Z', { hours: closed })).toEqual({
      at: null,
      said: "I'll pass on that you'd like a call back, and they'll ring you as soon as they can.",
    });
  });
});

describe('agreed times across the clock changes (Europe/London)', () => {
  it('spring: "tomorrow morning" on the Saturday before is 9 a.m. summer time on Monday, 08:00 UTC', () => {
    expect(agree('tomorrow morning', '2026-03-28T10:00:00Z')).toEqual({ at: '2026-03-30T08:00:00.000Z', said: "I'll ring you back at 9am on Monday from this number." });
  });

  it('spring: "after four" said at five on the Friday before is 4 p.m. summer time on Monday, 15:00 UTC', () => {
    expect(agree('after four', '2026-03-27T17:00:00Z')).toEqual({ at: '2026-03-30T15:00:00.000Z', said: "I'll ring you back at 4pm on Monday from this number." });
  });

  it('autumn: "after four" said at five (16:00 UTC) on the Friday before is 4 p.m. GMT on Monday, 16:00 UTC', () => {
    expect(agree('after four', '2026-10-23T16:00:00Z')).toEqual({ at: '2026-10-26T16:00:00.000Z', said: "I'll ring you back at 4pm on Monday from this number." });
  });

  it('autumn: "at 2" on the Friday before the change is 2 p.m. summer time, 13:00 UTC', () => {
    expect(agree('at 2', '2026-10-23T08:00:00Z').at).toBe('2026-10-23T13:00:00.000Z');
  });
});

describe('agreed times over bank holidays (England and Wales)', () => {
  it('"after four" on the Thursday before Easter skips Good Friday and Easter Monday: Tuesday, 4 p.m. summer time', () => {
    expect(agree('after four', '2026-04-02T16:00:00Z')).toEqual({ at: '2026-04-07T15:00:00.000Z', said: "I'll ring you back at 4pm on Tuesday from this number." });
  });

  it('"after four" on Christmas Eve skips Christmas Day and the Boxing Day substitute Monday', () => {
    expect(agree('after four', '2026-12-24T17:00:00Z').at).toBe('2026-12-29T16:00:00.000Z');
  });

  it('"as soon as you can" on Boxing Day (a Friday in 2025) is the Monday after', () => {
    expect(agree('as soon as you can', '2025-12-26T10:00:00Z').at).toBe('2025-12-29T09:00:00.000Z');
  });
});
