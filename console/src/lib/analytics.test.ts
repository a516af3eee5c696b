import { describe, expect, it } from 'vitest';
import { lastSevenDays, peakHourBars, percentOf, urgencyRows } from './analytics';

describe('analytics', () => {
  it('takes the 7 most recent days, oldest first, sized against their maximum', () => {
    const perDay: Record<string, number> = {};
    for (let d = 1; d <= 10; d++) perDay[`2026-03-${String(d).padStart(2, '0')}`] = d;
    const bars = lastSevenDays(perDay);
    expect(bars.map((b) => b.day)).toEqual(['2026-03-04', '2026-03-05', '2026-03-06', '2026-03-07', '2026-03-08', '2026-03-09', '2026-03-10']);
    expect(bars[6]!.percent).toBe(100);
    expect(bars[0]!.percent).toBe(40);
  });
  it('handles an empty or all-zero map', () => {
    expect(lastSevenDays({})).toEqual([]);
    expect(lastSevenDays({ '2026-01-01': 0 })[0]!.percent).toBe(0);
  });
  it('peak hours: 24 bars, at least 4px when above 0, with a tooltip', () => {
    const bars = peakHourBars({ '9': 100, '13': 1 }, 160);
    expect(bars).toHaveLength(24);
    expect(bars[9]!.heightPx).toBe(160);
    expect(bars[13]!.heightPx).toBe(4);
    expect(bars[0]!.heightPx).toBe(0);
    expect(bars[13]!.tooltip).toBe('1 calls at 13:00');
  });
  it('percentages', () => {
    expect(percentOf(1, 3)).toBe(33);
    expect(percentOf(1, 0)).toBe(0);
  });
});

describe('urgency breakdown', () => {
  it('gives each urgency its count and whole percent of the period, not-assessed calls last', () => {
    const rows = urgencyRows({ period: '30d', calls: 8, urgent: 2, normal: 3, low: 1, unassessed: 2 });
    expect(rows.map((r) => [r.label, r.count, r.percent])).toEqual([
      ['Urgent', 2, 25],
      ['Normal', 3, 38],
      ['Low priority', 1, 13],
      ['Not assessed', 2, 25],
    ]);
  });
  it('answers 0% for a period without calls', () => {
    expect(urgencyRows({ period: '7d', calls: 0, urgent: 0, normal: 0, low: 0, unassessed: 0 }).map((r) => r.percent)).toEqual([0, 0, 0, 0]);
  });
});
