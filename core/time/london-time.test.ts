import { describe, expect, it } from 'vitest';
import { bstInterval, londonDay, londonDayStartUtc, londonMonthStartUtc, londonOffsetMs } from './london-time.js';

const at = (iso: string) => Date.parse(iso);

describe('UK summer time rule', () => {
  it('starts and ends at 01:00 UTC on the last Sundays of March and October', () => {
    expect(bstInterval(2026)).toEqual({ start: at('2026-03-29T01:00:00Z'), end: at('2026-10-25T01:00:00Z') });
    expect(bstInterval(2025)).toEqual({ start: at('2025-03-30T01:00:00Z'), end: at('2025-10-26T01:00:00Z') });
    // 2029: 31 March is itself the last Sunday.
    expect(bstInterval(2029)).toEqual({ start: at('2029-03-25T01:00:00Z'), end: at('2029-10-28T01:00:00Z') });
    expect(bstInterval(2024).start).toBe(at('2024-03-31T01:00:00Z'));
  });

  it('gives the offset either side of each change', () => {
    expect(londonOffsetMs(at('2026-03-29T00:59:59.999Z'))).toBe(0);
    expect(londonOffsetMs(at('2026-03-29T01:00:00Z'))).toBe(3_600_000);
    expect(londonOffsetMs(at('2026-10-25T00:59:59.999Z'))).toBe(3_600_000);
    expect(londonOffsetMs(at('2026-10-25T01:00:00Z'))).toBe(0);
  });

  it('agrees with the platform time-zone database every 15 minutes across 2024–2030 changes', () => {
    const fmt = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', hourCycle: 'h23' });
    for (const y of [2024, 2026, 2030]) {
      for (const mid of [bstInterval(y).start, bstInterval(y).end]) {
        for (let t = mid - 2 * 86_400_000; t < mid + 2 * 86_400_000; t += 900_000) {
          const p = Object.fromEntries(fmt.formatToParts(new Date(t)).map((x) => [x.type, x.value]));
          expect(londonDay(t)).toBe(`${p.year}-${p.month}-${p.day}`);
          expect(new Date(t + londonOffsetMs(t)).getUTCHours()).toBe(Number(p.hour));
        }
      }
    }
  });
});

describe('London days and months', () => {
  it('puts the first minutes after midnight in summer on the London day', () => {
    expect(londonDay(at('2026-07-01T23:30:00Z'))).toBe('2026-07-02');
    expect(londonDay(at('2026-12-31T23:30:00Z'))).toBe('2026-12-31');
  });

  it('starts the month at London midnight on the 1st', () => {
    expect(londonMonthStartUtc(at('2026-04-15T10:00:00Z'))).toBe(at('2026-03-31T23:00:00Z'));
    expect(londonMonthStartUtc(at('2026-11-30T23:59:00Z'))).toBe(at('2026-11-01T00:00:00Z'));
    // 23:30 UTC on 31 May is already June in London.
    expect(londonMonthStartUtc(at('2026-05-31T23:30:00Z'))).toBe(at('2026-05-31T23:00:00Z'));
  });

  it('starts the day at London midnight, in summer an hour before UTC midnight', () => {
    expect(londonDayStartUtc(at('2026-07-01T23:30:00Z'))).toBe(at('2026-07-01T23:00:00Z'));
    expect(londonDayStartUtc(at('2026-07-01T22:30:00Z'))).toBe(at('2026-06-30T23:00:00Z'));
    expect(londonDayStartUtc(at('2026-12-31T23:30:00Z'))).toBe(at('2026-12-31T00:00:00Z'));
    // The day the clocks go forward (29 March 2026) began at 00:00 GMT.
    expect(londonDayStartUtc(at('2026-03-29T12:00:00Z'))).toBe(at('2026-03-29T00:00:00Z'));
  });
});
