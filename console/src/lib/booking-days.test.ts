import { describe, expect, it } from 'vitest';
import { bookingDayLabel, freeTimeLabel, groupByLondonDay, londonDateAndTime, londonWallToIso, shortLondonDay } from './booking-days';

describe('booking days on the London clock', () => {
  it('turns a London date and time into the instant, on both sides of the clock changes', () => {
    expect(londonWallToIso('2026-12-03', '10:00')).toBe('2026-12-03T10:00:00.000Z');
    expect(londonWallToIso('2026-07-01', '10:00')).toBe('2026-07-01T09:00:00.000Z');
    // 25 October 2026: the clocks go back at 02:00 BST; 09:00 that day is GMT.
    expect(londonWallToIso('2026-10-24', '09:00')).toBe('2026-10-24T08:00:00.000Z');
    expect(londonWallToIso('2026-10-26', '09:00')).toBe('2026-10-26T09:00:00.000Z');
    // 29 March 2026, 01:30 does not exist in London.
    expect(londonWallToIso('2026-03-29', '01:30')).toBeNull();
    expect(londonWallToIso('2026-12-03', '')).toBeNull();
    expect(londonWallToIso('3/12/2026', '10:00')).toBeNull();
  });

  it('reads an instant back as the London date and time a move dialog starts from', () => {
    expect(londonDateAndTime('2026-07-01T09:00:00.000Z')).toEqual({ date: '2026-07-01', time: '10:00' });
    expect(londonDateAndTime('2026-12-31T23:30:00.000Z')).toEqual({ date: '2026-12-31', time: '23:30' });
  });

  it('groups bookings by London day with Today, Tomorrow, then the day named', () => {
    const now = new Date('2026-06-30T22:30:00Z'); // 23:30 on 30 June in London
    const groups = groupByLondonDay([
      { id: 1, start: '2026-06-30T22:45:00Z' },
      { id: 2, start: '2026-06-30T23:15:00Z' }, // 00:15 on 1 July in London
      { id: 3, start: '2026-07-01T08:00:00Z' },
      { id: 4, start: '2026-07-03T08:00:00Z' },
    ], now);
    expect(groups.map((g) => [g.label, g.items.map((i) => i.id)])).toEqual([['Today', [1]], ['Tomorrow', [2, 3]], ['Friday 3 July', [4]]]);
    expect(bookingDayLabel('2026-12-03T10:00:00Z', now)).toBe('Thursday 3 December');
  });

  it('names a free time as an owner scans it, on the London clock', () => {
    expect(freeTimeLabel('2026-12-02T12:30:00.000Z')).toBe('Wed 2 Dec · 12:30');
    // 23:30 UTC on 30 June is half past midnight on 1 July in London.
    expect(freeTimeLabel('2026-06-30T23:30:00.000Z')).toBe('Wed 1 Jul · 00:30');
    expect(shortLondonDay('2026-10-25T09:00:00.000Z')).toBe('Sun 25 Oct');
  });
});
