import { DAY_MS, HOUR_MS, londonDayNumber, londonOffsetMs } from '../../time/london-time.js';

// A booking's time is a London wall-clock time ("Tuesday at ten") turned into an instant, and back.
// The one London rule lives in core/time/london-time.ts; these are the two directions on top of it.

/**
 * The instant of `minute` past London midnight on London day number `day`. In the spring-forward
 * gap (01:00–02:00 local) the time does not exist and reads as summer time; in October's repeated
 * hour the first (summer-time) occurrence is meant. Business hours never sit in either hour.
 */
export function londonWallToUtc(day: number, minute: number): number {
  const local = day * DAY_MS + minute * 60_000;
  const asSummer = local - HOUR_MS;
  return londonOffsetMs(asSummer) === HOUR_MS ? asSummer : local;
}

/** London wall clock of an instant: its day number, weekday (0 = Monday), minute of the day, and the calendar parts. */
export function londonWall(t: number): { day: number; weekday: number; minute: number; year: number; month: number; date: number } {
  const local = new Date(t + londonOffsetMs(t));
  return {
    day: londonDayNumber(t),
    weekday: (local.getUTCDay() + 6) % 7,
    minute: local.getUTCHours() * 60 + local.getUTCMinutes(),
    year: local.getUTCFullYear(),
    month: local.getUTCMonth(),
    date: local.getUTCDate(),
  };
}

/** Weekday (0 = Monday) of a London day number: day 0 (1 January 1970) was a Thursday. */
export const weekdayOfDay = (day: number): number => (day + 3) % 7;
