import type Database from 'better-sqlite3';
import type { ApiAnalytics } from '../../contract/api.js';
import { DAY_MS, dayNumberToDate, HOUR_MS, londonMidnightUtc, londonMonthStartUtc, londonOffsetSql } from './london-time.js';

/** callsPerDay covers this many London days up to today, days without calls included as 0. */
export const CALLS_PER_DAY_WINDOW = 30;
export const RECENT_CALLS = 10;

/** Percent with one decimal; 0 when there is nothing to divide by. */
export function percent(part: number, whole: number): number {
  return whole > 0 ? Math.round((part / whole) * 1000) / 10 : 0;
}

interface Totals {
  total: number;
  missed: number | null;
  answered: number | null;
  voicemail: number | null;
  avg_duration: number | null;
  this_month: number | null;
  notified: number | null;
  notify_outcomes: number | null;
  transcribed: number | null;
  transcribe_outcomes: number | null;
  first_at: number | null;
  last_at: number | null;
}

/**
 * Every figure of SPEC.md §3 Analytics for one business, in SQL, scoped by user id, in
 * London days and hours. Three passes over the owner's rows via calls_user_created_idx:
 * totals (one scan), peak hours (one scan), and the recent window and list (index ranges).
 *
 * Definitions: notification success = calls texted ÷ calls whose texting has an outcome
 * (sent, or an error recorded); transcription success = done ÷ (done + failed), pending
 * calls counted in neither.
 */
export function computeAnalytics(sqlite: Database.Database, userId: number, now: Date): ApiAnalytics {
  const t = now.getTime();
  const monthStart = londonMonthStartUtc(t);
  const totals = sqlite
    .prepare(
      `select count(*) as total,
         sum(status = 'missed') as missed,
         sum(status = 'answered') as answered,
         sum(status = 'voicemail') as voicemail,
         avg(duration) as avg_duration,
         sum(created_at >= @monthStart and created_at < @monthEnd) as this_month,
         sum(notification_sent) as notified,
         sum(notification_sent = 1 or notification_error is not null) as notify_outcomes,
         sum(transcription_status = 'done') as transcribed,
         sum(transcription_status in ('done', 'failed')) as transcribe_outcomes,
         min(created_at) as first_at,
         max(created_at) as last_at
       from calls where user_id = @userId`,
    )
    .get({ userId, monthStart, monthEnd: londonMonthStartUtc(monthStart + 32 * DAY_MS) }) as Totals;

  const peakHours: Record<string, number> = {};
  for (let h = 0; h < 24; h++) peakHours[String(h)] = 0;
  const callsPerDay: Record<string, number> = {};
  const windowStart = londonMidnightUtc(t, CALLS_PER_DAY_WINDOW - 1);
  for (let d = 0; d < CALLS_PER_DAY_WINDOW; d++) {
    // Noon of each London day is safely inside it whatever the offset.
    callsPerDay[dayNumberToDate(Math.floor((windowStart + HOUR_MS * 12) / DAY_MS) + d)] = 0;
  }

  if (totals.total > 0 && totals.first_at !== null && totals.last_at !== null) {
    const off = londonOffsetSql('created_at', new Date(totals.first_at).getUTCFullYear(), new Date(totals.last_at).getUTCFullYear());
    const hours = sqlite
      .prepare(`select ((created_at + ${off.sql}) / ${HOUR_MS}) % 24 as hour, count(*) as n from calls where user_id = ? group by hour`)
      .all(...off.params, userId) as { hour: number; n: number }[];
    for (const { hour, n } of hours) peakHours[String(hour)] = n;

    const days = sqlite
      .prepare(`select (created_at + ${off.sql}) / ${DAY_MS} as day, count(*) as n from calls where user_id = ? and created_at >= ? group by day`)
      .all(...off.params, userId, windowStart) as { day: number; n: number }[];
    for (const { day, n } of days) {
      const key = dayNumberToDate(day);
      if (key in callsPerDay) callsPerDay[key] = n;
    }
  }

  const recent = sqlite
    .prepare(
      `select id, from_number as fromNumber, status, duration, created_at as createdAt
       from calls where user_id = ? order by created_at desc, id desc limit ${RECENT_CALLS}`,
    )
    .all(userId) as { id: number; fromNumber: string; status: ApiAnalytics['recentCalls'][number]['status']; duration: number; createdAt: number }[];

  const missed = totals.missed ?? 0;
  return {
    totalCalls: totals.total,
    thisMonthCalls: totals.this_month ?? 0,
    avgDuration: Math.round(totals.avg_duration ?? 0),
    missedCallRate: percent(missed, totals.total),
    callsPerDay,
    peakHours,
    statusBreakdown: { missed, answered: totals.answered ?? 0, voicemail: totals.voicemail ?? 0 },
    notificationSuccessRate: percent(totals.notified ?? 0, totals.notify_outcomes ?? 0),
    transcriptionSuccessRate: percent(totals.transcribed ?? 0, totals.transcribe_outcomes ?? 0),
    recentCalls: recent.map((r) => ({ ...r, createdAt: new Date(r.createdAt).toISOString() })),
  };
}
