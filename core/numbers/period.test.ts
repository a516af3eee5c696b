import { describe, expect, it } from 'vitest';
import { londonMonthStart } from './period.js';

describe('londonMonthStart', () => {
  it('is midnight UTC in winter', () => {
    expect(londonMonthStart(new Date('2026-01-15T10:00:00Z'))).toEqual({ instant: new Date('2026-01-01T00:00:00Z'), date: '2026-01-01' });
  });

  it('is 23:00 UTC the day before in summer', () => {
    expect(londonMonthStart(new Date('2026-07-15T10:00:00Z'))).toEqual({ instant: new Date('2026-06-30T23:00:00Z'), date: '2026-07-01' });
  });

  it('already counts the new month at 00:30 London on the 1st in summer', () => {
    expect(londonMonthStart(new Date('2026-07-31T23:30:00Z')).date).toBe('2026-08-01');
  });
});
