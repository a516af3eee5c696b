/*
 * Europe/London without a time-zone database, for SQL. SQLite has no time zones, so
 * the UK rule is applied by hand: British Summer Time (UTC+1) runs from 01:00 UTC on
 * the last Sunday of March to 01:00 UTC on the last Sunday of October (Summer Time
 * Order 2002, EU Directive 2000/84/EC); otherwise GMT (UTC+0). The analytics counters' triggers
 * apply the same rule in SQL (SQLite's from scripts/db-schema/counter-triggers.ts, PostgreSQL's
 * london_ms in drizzle-pg/0001_call_stats_triggers.sql).
 */

export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;

/** One stretch of summer time: [start, end) in UTC epoch milliseconds. */
export interface BstInterval {
  start: number;
  end: number;
}

/** 01:00 UTC on the last Sunday of a 31-day month (March = 2, October = 9). */
function lastSundayAt1Utc(year: number, month: number): number {
  const last = Date.UTC(year, month, 31, 1);
  return last - new Date(last).getUTCDay() * DAY_MS;
}

export function bstInterval(year: number): BstInterval {
  return { start: lastSundayAt1Utc(year, 2), end: lastSundayAt1Utc(year, 9) };
}

/** London's offset from UTC at instant `t`: 1 hour in summer time, else 0. */
export function londonOffsetMs(t: number): number {
  const { start, end } = bstInterval(new Date(t).getUTCFullYear());
  return t >= start && t < end ? HOUR_MS : 0;
}

/** The London calendar day of `t` as a day number (days since 1970-01-01 in London), as call_stats stores it. */
export function londonDayNumber(t: number): number {
  return Math.floor((t + londonOffsetMs(t)) / DAY_MS);
}

/** A London day number as YYYY-MM-DD. */
export function dayNumberToDate(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

/** The London calendar day of `t` as YYYY-MM-DD. */
export function londonDay(t: number): string {
  return dayNumberToDate(londonDayNumber(t));
}

/**
 * UTC instant of London midnight on the 1st of the month containing `t`. Midnight is
 * never inside a change (those happen at 01:00 UTC), so the offset in force just before
 * 00:00 UTC on that date is the one at London midnight.
 */
export function londonMonthStartUtc(t: number): number {
  const local = new Date(t + londonOffsetMs(t));
  const utcMidnight = Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), 1);
  return utcMidnight - londonOffsetMs(utcMidnight - 1);
}

/** UTC instant of London midnight starting the day that contains `t` (the same reasoning as the month's). */
export function londonDayStartUtc(t: number): number {
  const utcMidnight = londonDayNumber(t) * DAY_MS;
  return utcMidnight - londonOffsetMs(utcMidnight - 1);
}
