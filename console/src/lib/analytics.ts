// Analytics maths (SPEC.md §2 Analytics, §9).
import type { AnalyticsPeriod, ApiUrgencyBreakdown } from '../../../contract/api';

export interface DayBar {
  day: string;
  count: number;
  /** 0–100, relative to the busiest of the shown days. */
  percent: number;
}

/** The 7 most recent dates in callsPerDay, oldest first, each sized against the busiest of them. */
export function lastSevenDays(callsPerDay: Record<string, number>): DayBar[] {
  const days = Object.keys(callsPerDay)
    .sort()
    .slice(-7);
  const max = Math.max(0, ...days.map((d) => callsPerDay[d] ?? 0));
  return days.map((day) => {
    const count = callsPerDay[day] ?? 0;
    return { day, count, percent: max > 0 ? (count / max) * 100 : 0 };
  });
}

const MIN_PEAK_BAR_PX = 4;

/** One bar per hour 0–23; any hour with calls is at least 4px tall. */
export function peakHourBars(peakHours: Record<string, number>, chartHeightPx: number) {
  const counts = Array.from({ length: 24 }, (_, h) => peakHours[String(h)] ?? 0);
  const max = Math.max(0, ...counts);
  return counts.map((count, hour) => {
    const scaled = max > 0 ? (count / max) * chartHeightPx : 0;
    return { hour, count, heightPx: count > 0 ? Math.max(MIN_PEAK_BAR_PX, scaled) : 0, tooltip: `${count} calls at ${hour}:00` };
  });
}

export function percentOf(part: number, total: number): number {
  return total > 0 ? Math.round((part / total) * 100) : 0;
}

/** "N calls" for a volume row. */
export const callsLabel = (n: number) => `${n} calls`;

/** The urgency card's period choices, as the select offers them. */
export const URGENCY_PERIODS: { value: AnalyticsPeriod; label: string }[] = [
  { value: '7d', label: 'Last 7 days' },
  { value: '30d', label: 'Last 30 days' },
  { value: 'month', label: 'This month' },
  { value: 'all', label: 'All time' },
];

export interface UrgencyRow {
  label: string;
  count: number;
  /** Whole percent of the period's calls. */
  percent: number;
  colour: string;
}

/** One row per urgency, most pressing first, then the calls no summary judged (missed, pending). */
export function urgencyRows(b: ApiUrgencyBreakdown): UrgencyRow[] {
  const row = (label: string, count: number, colour: string) => ({ label, count, percent: percentOf(count, b.calls), colour });
  return [
    row('Urgent', b.urgent, 'bg-red-500'),
    row('Normal', b.normal, 'bg-indigo-500'),
    row('Low priority', b.low, 'bg-slate-400'),
    row('Not assessed', b.unassessed, 'bg-slate-200 dark:bg-slate-700'),
  ];
}
