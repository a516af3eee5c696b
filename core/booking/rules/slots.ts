import { WEEKDAYS } from '../../../contract/call-handling.js';
import { isBankHoliday } from '../../call-handling/holidays.js';
import { toMinute } from '../../call-handling/schedule.js';
import { DAY_MS, dayNumberToDate } from '../../time/london-time.js';
import { londonWall, londonWallToUtc, weekdayOfDay } from './london-wall.js';
import type { BookingRules } from './booking-rules.js';
import type { Wish } from './wish.js';

// The slot engine: pure, no I/O. From the owner's rules, what is already taken (their
// calendar's busy times and the box's own live bookings) and the caller's wish, the soonest free
// starts. Everything is decided on the London wall clock and turned into instants per day, so
// a day either side of a clock change has its hours at the same local times.

/** [start, end) in UTC epoch milliseconds. */
export interface Interval {
  start: number;
  end: number;
}

export interface SlotQuery {
  now: number;
  rules: BookingRules;
  service: { durationMinutes: number; bufferMinutes: number };
  /** The owner's calendar: any overlap blocks a slot. */
  busy: readonly Interval[];
  /** The box's live bookings, each [start, end + its buffer). */
  booked: readonly Interval[];
  wish: Wish;
  /** Only starts strictly after this instant (a caller who refused earlier offers). */
  after?: number;
  limit?: number;
  /** Starts fall on this grid from each span's opening; 30 minutes by default. */
  stepMinutes?: number;
}

/** Sorted by start, with overlapping or touching intervals merged, so a lookup is one binary search. */
export function mergeIntervals(list: readonly Interval[]): Interval[] {
  const sorted = [...list].filter((i) => i.end > i.start).sort((a, b) => a.start - b.start);
  const out: Interval[] = [];
  for (const i of sorted) {
    const last = out[out.length - 1];
    if (last && i.start <= last.end) last.end = Math.max(last.end, i.end);
    else out.push({ ...i });
  }
  return out;
}

/** Whether [start, end) overlaps any of the merged, sorted intervals. */
export function overlapsAny(merged: readonly Interval[], start: number, end: number): boolean {
  let lo = 0;
  let hi = merged.length;
  // First interval whose end is after `start`.
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (merged[mid]!.end <= start) lo = mid + 1;
    else hi = mid;
  }
  return lo < merged.length && merged[lo]!.start < end;
}

/** Live bookings per London day, for the daily cap. */
export function countByDay(booked: readonly Interval[]): Map<number, number> {
  const counts = new Map<number, number>();
  for (const b of booked) {
    const day = londonWall(b.start).day;
    counts.set(day, (counts.get(day) ?? 0) + 1);
  }
  return counts;
}

/** The soonest free slots matching the wish, at most `limit` (3), soonest first. */
export function findSlots(q: SlotQuery): Interval[] {
  const limit = q.limit ?? 3;
  const step = q.stepMinutes ?? 30;
  const duration = q.service.durationMinutes * 60_000;
  const block = duration + q.service.bufferMinutes * 60_000;
  const earliest = Math.max(q.now + q.rules.noticeMinutes * 60_000, q.after !== undefined ? q.after + 1 : -Infinity);
  const latest = q.now + q.rules.horizonDays * DAY_MS;
  const taken = mergeIntervals([...q.busy, ...q.booked]);
  const perDay = countByDay(q.booked);
  const today = londonWall(q.now).day;
  const lastDay = londonWall(latest).day;
  const out: Interval[] = [];

  for (let day = Math.max(today, q.wish.fromDay ?? today); day <= Math.min(lastDay, q.wish.toDay ?? lastDay); day++) {
    const weekday = weekdayOfDay(day);
    if (q.wish.weekdays && !q.wish.weekdays.includes(weekday)) continue;
    if (isBankHoliday(q.rules.holidayNations, dayNumberToDate(day))) continue;
    if (q.rules.dailyCap !== null && (perDay.get(day) ?? 0) >= q.rules.dailyCap) continue;
    const spans = [...q.rules.hours[WEEKDAYS[weekday]!]].sort((a, b) => toMinute(a.open) - toMinute(b.open));
    for (const span of spans) {
      const close = span.close === '23:59' ? 24 * 60 : toMinute(span.close);
      for (let minute = toMinute(span.open); minute + q.service.durationMinutes <= close; minute += step) {
        if (q.wish.fromMinute !== undefined && minute < q.wish.fromMinute) continue;
        if (q.wish.toMinute !== undefined && minute >= q.wish.toMinute) break;
        const start = londonWallToUtc(day, minute);
        if (start < earliest) continue;
        if (start >= latest) return out;
        // The buffer after must be free too: it is the time to pack up and travel to the next job.
        if (overlapsAny(taken, start, start + block)) continue;
        out.push({ start, end: start + duration });
        if (out.length >= limit) return out;
      }
    }
  }
  return out;
}

/** Whether one particular start is still a slot the engine would offer (the claim re-checks with fresh data). */
export function isFreeSlot(q: Omit<SlotQuery, 'wish' | 'limit' | 'after'>, start: number): boolean {
  const w = londonWall(start);
  const found = findSlots({ ...q, wish: { fromDay: w.day, toDay: w.day, fromMinute: w.minute, toMinute: w.minute + 1 }, limit: 1 });
  return found.length === 1 && found[0]!.start === start;
}

/**
 * One start judged once, for a claim: 'not-offered' when the rules alone exclude it (hours,
 * notice, horizon, off the grid, a bank holiday), 'taken' when the calendar, a booking or the
 * daily cap does, 'free' otherwise. The owner's mistake (a 400) and a race lost (a 409) apart.
 */
export type SlotVerdict = 'free' | 'not-offered' | 'taken';

export function slotVerdict(q: Omit<SlotQuery, 'wish' | 'limit' | 'after'>, start: number): SlotVerdict {
  if (!isFreeSlot({ ...q, busy: [], booked: [] }, start)) return 'not-offered';
  return isFreeSlot(q, start) ? 'free' : 'taken';
}
