import type Database from 'better-sqlite3';
import type { ApiAnalytics } from '../../contract/api.js';
import { DAY_MS, dayNumberToDate as dayKey, londonDayNumber, londonMonthStartUtc } from './london-time.js';

/** callsPerDay covers this many London days up to today, days without calls included as 0. */
export const CALLS_PER_DAY_WINDOW = 30;
export const RECENT_CALLS = 10;

/** Percent with one decimal; 0 when there is nothing to divide by. */
export function percent(part: number, whole: number): number {
  return whole > 0 ? Math.round((part / whole) * 1000) / 10 : 0;
}


interface Totals {
  calls: number | null;
  missed: number | null;
  answered: number | null;
  voicemail: number | null;
  duration: number | null;
  notified: number | null;
  notify_outcomes: number | null;
  transcribed: number | null;
  transcribe_outcomes: number | null;
  this_month: number | null;
}

/**
 * Every figure of SPEC.md §3 Analytics for one business, in SQL, scoped by user id.
 * The counts come from call_stats, which triggers on `calls` keep per London day and
 * hour (drizzle/0003_call_stats_triggers.sql): a business with 100,000 calls has at most
 * a few thousand such rows, so no request scans its calls.
 *
 * Definitions: notification success = calls texted ÷ calls whose texting has an outcome
 * (sent, or an error recorded); transcription success = done ÷ (done + failed), pending
 * calls counted in neither.
 */
export function computeAnalytics(sqlite: Database.Database, userId: number, now: Date): ApiAnalytics {
  const t = now.getTime();
  const monthStart = londonMonthStartUtc(t);
  const month = { from: londonDayNumber(monthStart), to: londonDayNumber(londonMonthStartUtc(monthStart + 32 * DAY_MS)) };
  const today = londonDayNumber(t);
  const windowFrom = today - (CALLS_PER_DAY_WINDOW - 1);

  const totals = sqlite
    .prepare(
      `select sum(calls) as calls, sum(missed) as missed, sum(answered) as answered, sum(voicemail) as voicemail,
         sum(duration_sum) as duration, sum(notified) as notified, sum(notify_outcomes) as notify_outcomes,
         sum(transcribed) as transcribed, sum(transcribe_outcomes) as transcribe_outcomes,
         sum(case when day >= @from and day < @to then calls else 0 end) as this_month
       from call_stats where user_id = @userId`,
    )
    .get({ userId, ...month }) as Totals;

  const peakHours: Record<string, number> = {};
  for (let h = 0; h < 24; h++) peakHours[String(h)] = 0;
  const hours = sqlite.prepare(`select hour, sum(calls) as n from call_stats where user_id = ? group by hour`).all(userId) as { hour: number; n: number }[];
  for (const { hour, n } of hours) peakHours[String(hour)] = n;

  const callsPerDay: Record<string, number> = {};
  for (let d = windowFrom; d <= today; d++) callsPerDay[dayKey(d)] = 0;
  const days = sqlite
    .prepare(`select day, sum(calls) as n from call_stats where user_id = ? and day between ? and ? group by day`)
    .all(userId, windowFrom, today) as { day: number; n: number }[];
  for (const { day, n } of days) callsPerDay[dayKey(day)] = n;

  const recent = sqlite
    .prepare(
      `select id, from_number as fromNumber, status, duration, created_at as createdAt
       from calls where user_id = ? order by created_at desc, id desc limit ${RECENT_CALLS}`,
    )
    .all(userId) as { id: number; fromNumber: string; status: ApiAnalytics['recentCalls'][number]['status']; duration: number; createdAt: number }[];

  const total = totals.calls ?? 0;
  const missed = totals.missed ?? 0;
  return {
    totalCalls: total,
    thisMonthCalls: totals.this_month ?? 0,
    avgDuration: total > 0 ? Math.round((totals.duration ?? 0) / total) : 0,
    missedCallRate: percent(missed, total),
    callsPerDay,
    peakHours,
    statusBreakdown: { missed, answered: totals.answered ?? 0, voicemail: totals.voicemail ?? 0 },
    notificationSuccessRate: percent(totals.notified ?? 0, totals.notify_outcomes ?? 0),
    transcriptionSuccessRate: percent(totals.transcribed ?? 0, totals.transcribe_outcomes ?? 0),
    recentCalls: recent.map((r) => ({ ...r, createdAt: new Date(r.createdAt).toISOString() })),
  };
}
