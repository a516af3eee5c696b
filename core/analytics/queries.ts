import { and, desc, eq, sql } from 'drizzle-orm';
import type { AnalyticsPeriod, ApiAnalytics, ApiUrgencyBreakdown } from '../../contract/api.js';
import type { Db } from '../db/client.js';
import { queryRows } from '../db/raw.js';
import { tablesOf } from '../db/schema.js';
import { DAY_MS, dayNumberToDate as dayKey, londonDayNumber, londonMonthStartUtc } from '../time/london-time.js';
import { londonMidnightUtc } from '../digest/week.js';
import { screenedCalls } from '../screening/counts.js';

/** callsPerDay covers this many London days up to today, days without calls included as 0. */
export const CALLS_PER_DAY_WINDOW = 30;
export const RECENT_CALLS = 10;

/** Percent with one decimal; 0 when there is nothing to divide by. */
export function percent(part: number, whole: number): number {
  return whole > 0 ? Math.round((part / whole) * 1000) / 10 : 0;
}

type UrgencyRow = { calls: number | null; urgent: number | null; normal: number | null; low: number | null };

/**
 * Every figure of SPEC.md §3 Analytics for one business, in SQL, scoped by user id, reading
 * only counters that triggers on `calls` keep exact in the same transaction as each write:
 * - totals and peak hours: the business's at most 24 call_hour_stats rows (per London hour of
 *   day, all time; drizzle/0004_call_hour_stats.sql);
 * - last 30 days and this month: call_stats rows (per London day and hour;
 *   drizzle/0003_call_stats_triggers.sql) for those at most 62 days only.
 * So a request costs the same for a business with 100,000 calls as for one with 10
 * (bench/analytics.ts, bench/http-load.ts); test/analytics/consistency.test.ts checks the
 * counters against the calls table after random writes.
 *
 * Definitions: notification success = calls texted ÷ calls whose texting has an outcome
 * (sent, or an error recorded); transcription success = done ÷ (done + failed), pending
 * calls counted in neither.
 */
export async function computeAnalytics(db: Db, userId: number, now: Date, period: AnalyticsPeriod = 'all'): Promise<ApiAnalytics> {
  const { callHourStats, callStats, calls } = tablesOf(db);
  const t = now.getTime();
  const monthStart = londonMonthStartUtc(t);
  const month = { from: londonDayNumber(monthStart), to: londonDayNumber(londonMonthStartUtc(monthStart + 32 * DAY_MS)) };
  const today = londonDayNumber(t);
  const windowFrom = today - (CALLS_PER_DAY_WINDOW - 1);

  const sum = { calls: 0, missed: 0, answered: 0, voicemail: 0, duration: 0, notified: 0, notifyOutcomes: 0, transcribed: 0, transcribeOutcomes: 0, urgent: 0, normal: 0, low: 0 };
  const peakHours: Record<string, number> = {};
  for (let h = 0; h < 24; h++) peakHours[String(h)] = 0;
  for (const r of await db.select().from(callHourStats).where(eq(callHourStats.userId, userId))) {
    peakHours[String(r.hour)] = r.calls;
    sum.calls += r.calls;
    sum.missed += r.missed;
    sum.answered += r.answered;
    sum.voicemail += r.voicemail;
    sum.duration += r.durationSum;
    sum.notified += r.notified;
    sum.notifyOutcomes += r.notifyOutcomes;
    sum.transcribed += r.transcribed;
    sum.transcribeOutcomes += r.transcribeOutcomes;
    sum.urgent += r.urgent;
    sum.normal += r.normal;
    sum.low += r.low;
  }

  // One range read covers both the 30-day window and this month (calls dated later this
  // month, e.g. after a clock correction, count towards the month as before).
  const callsPerDay: Record<string, number> = {};
  for (let d = windowFrom; d <= today; d++) callsPerDay[dayKey(d)] = 0;
  let thisMonth = 0;
  const perDay = await queryRows<{ day: number; n: number }>(
    db,
    sql`select ${callStats.day} as day, sum(${callStats.calls}) as n from ${callStats}
        where ${callStats.userId} = ${userId} and ${callStats.day} between ${Math.min(windowFrom, month.from)} and ${Math.max(today, month.to - 1)}
        group by ${callStats.day}`,
  );
  for (const { day, n } of perDay) {
    if (day >= windowFrom && day <= today) callsPerDay[dayKey(day)] = n;
    if (day >= month.from && day < month.to) thisMonth += n;
  }

  const recent = await db
    .select({ id: calls.id, fromNumber: calls.fromNumber, status: calls.status, duration: calls.duration, createdAt: calls.createdAt })
    .from(calls)
    .where(and(eq(calls.userId, userId), eq(calls.testCall, false)))
    .orderBy(desc(calls.createdAt), desc(calls.id))
    .limit(RECENT_CALLS);

  // All time from the hour rows already read; a stretch of days from call_stats (at most 31 days of rows).
  const days = { '7d': [today - 6, today], '30d': [today - 29, today], month: [month.from, month.to - 1] } as const;
  const u: UrgencyRow = period === 'all' ? sum : await urgencyBetween(db, userId, days[period][0], days[period][1]);
  const urgencyBreakdown = urgencyFigures(period, u);
  // Nuisance calls screened over the same period (issue 43): kept in the log, never texted.
  const screened = await screenedCalls(
    db,
    period === 'all' ? { userId } : { userId, from: new Date(londonMidnightUtc(days[period][0])), to: new Date(londonMidnightUtc(days[period][1] + 1)) },
  );

  const total = sum.calls;
  return {
    totalCalls: total,
    thisMonthCalls: thisMonth,
    avgDuration: total > 0 ? Math.round(sum.duration / total) : 0,
    missedCallRate: percent(sum.missed, total),
    callsPerDay,
    peakHours,
    statusBreakdown: { missed: sum.missed, answered: sum.answered, voicemail: sum.voicemail },
    notificationSuccessRate: percent(sum.notified, sum.notifyOutcomes),
    transcriptionSuccessRate: percent(sum.transcribed, sum.transcribeOutcomes),
    recentCalls: recent.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })),
    urgencyBreakdown,
    screenedCalls: screened,
  };
}

function urgencyFigures(period: AnalyticsPeriod, r: UrgencyRow): ApiUrgencyBreakdown {
  const calls = r.calls ?? 0;
  const urgent = r.urgent ?? 0;
  const normal = r.normal ?? 0;
  const low = r.low ?? 0;
  return { period, calls, urgent, normal, low, unassessed: calls - urgent - normal - low };
}

async function urgencyBetween(db: Db, userId: number, from: number, to: number): Promise<UrgencyRow> {
  const { callStats } = tablesOf(db);
  // Sums are numbers on both engines (openPostgres parses int8/numeric as numbers).
  const [r] = await queryRows<UrgencyRow>(
    db,
    sql`select sum(${callStats.calls}) as calls, sum(${callStats.urgent}) as urgent, sum(${callStats.normal}) as normal, sum(${callStats.low}) as low
        from ${callStats} where ${callStats.userId} = ${userId} and ${callStats.day} between ${from} and ${to}`,
  );
  return r ?? { calls: null, urgent: null, normal: null, low: null };
}
