import { describe, expect, it } from 'vitest';
import { dayDividers, dayLabel } from './call-days';

describe('call list day dividers', () => {
  const now = new Date('2026-07-04T09:00:00Z'); // 10:00 in London (BST)

  it('says Today and Yesterday by the London calendar, then the date', () => {
    expect(dayLabel('2026-07-03T23:30:00Z', now)).toBe('Today'); // 00:30 on the 4th in London
    expect(dayLabel('2026-07-03T22:30:00Z', now)).toBe('Yesterday');
    expect(dayLabel('2026-07-02T12:00:00Z', now)).toBe('02/07/2026');
  });

  it('knows yesterday across the autumn clock change', () => {
    expect(dayLabel('2026-10-24T20:00:00Z', new Date('2026-10-25T23:30:00Z'))).toBe('Yesterday');
  });

  it('puts a divider above the first call of each day only', () => {
    const calls = ['2026-07-04T08:00:00Z', '2026-07-04T07:00:00Z', '2026-07-03T15:00:00Z', '2026-06-30T10:00:00Z', '2026-06-30T09:00:00Z'].map((createdAt) => ({ createdAt }));
    expect(dayDividers(calls, now)).toEqual(['Today', null, 'Yesterday', '30/06/2026', null]);
  });
});
