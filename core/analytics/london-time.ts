/*
 * Europe/London without a time-zone database, for SQL. SQLite has no time zones, so
 * the UK rule is applied by hand: British Summer Time (UTC+1) runs from 01:00 UTC on
 * the last Sunday of March to 01:00 UTC on the last Sunday of October (Summer Time
 * Order 2002, EU Directive 2000/84/EC); otherwise GMT (UTC+0).
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

export function bstIntervals(fromYear: number, toYear: number): BstInterval[] {
  const out: BstInterval[] = [];
  for (let y = fromYear; y <= toYear; y++) out.push(bstInterval(y));
  return out;
}

/** London's offset from UTC at instant `t`: 1 hour in summer time, else 0. */
export function londonOffsetMs(t: number): number {
  const { start, end } = bstInterval(new Date(t).getUTCFullYear());
  return t >= start && t < end ? HOUR_MS : 0;
}

/** The London calendar day of `t` as YYYY-MM-DD. */
export function londonDay(t: number): string {
  return new Date(t + londonOffsetMs(t)).toISOString().slice(0, 10);
}

/** The London calendar day number (days since 1970-01-01 in London) → YYYY-MM-DD. */
export function dayNumberToDate(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

/**
 * UTC instant of London midnight starting the day `daysBack` days before the day of `t`.
 * Midnight is never inside a change (those happen at 01:00 UTC), so the offset taken at
 * 00:00 UTC of that date is the one in force at London midnight.
 */
export function londonMidnightUtc(t: number, daysBack = 0): number {
  const local = new Date(t + londonOffsetMs(t));
  const utcMidnight = Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate() - daysBack);
  return utcMidnight - londonOffsetMs(utcMidnight - 1);
}

/** UTC instant at which the London calendar month containing `t` began. */
export function londonMonthStartUtc(t: number): number {
  const local = new Date(t + londonOffsetMs(t));
  const utcMidnight = Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), 1);
  return utcMidnight - londonOffsetMs(utcMidnight - 1);
}

/**
 * A SQL expression giving London's offset in ms for the epoch-ms `column`, covering the
 * years `fromYear`..`toYear` with one range test per year: plain integer comparisons, so
 * it stays cheap over a hundred thousand rows. Times outside those years read as GMT, so
 * callers pass the years their rows span.
 */
export function londonOffsetSql(column: string, fromYear: number, toYear: number): { sql: string; params: number[] } {
  const intervals = bstIntervals(fromYear, toYear);
  if (intervals.length === 0) return { sql: '0', params: [] };
  const params: number[] = [];
  const whens = intervals.map((i) => {
    params.push(i.start, i.end);
    return `when ${column} >= ? and ${column} < ? then ${HOUR_MS}`;
  });
  return { sql: `(case ${whens.join(' ')} else 0 end)`, params };
}
