// Bookings on the Europe/London wall clock: grouped by London day for the list, and the owner's
// "date + time" picked for a move turned into an instant with its zone for the server.
import { dayLabel } from './call-days';
import { londonIsoDate } from './format';

const TZ = 'Europe/London';

/** London wall-clock parts of an instant. */
function wall(ms: number) {
  const parts = new Intl.DateTimeFormat('en-GB', { timeZone: TZ, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(new Date(ms));
  const get = (t: string) => Number(parts.find((p) => p.type === t)?.value);
  return Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'));
}

/**
 * The instant a London date (YYYY-MM-DD) and time (HH:mm) name, as ISO 8601 in UTC; null when
 * either is missing or malformed, or the time does not exist (skipped when the clocks go forward).
 */
export function londonWallToIso(date: string, time: string): string | null {
  const d = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  const t = /^(\d{2}):(\d{2})$/.exec(time);
  if (!d || !t) return null;
  const asUtc = Date.UTC(Number(d[1]), Number(d[2]) - 1, Number(d[3]), Number(t[1]), Number(t[2]));
  // London is UTC or UTC+1: try both offsets and keep the one whose wall clock reads as asked.
  for (const offsetMs of [0, 3_600_000]) {
    const instant = asUtc - offsetMs;
    if (wall(instant) === asUtc) return new Date(instant).toISOString();
  }
  return null;
}

/** The London date (YYYY-MM-DD) and time (HH:mm) of an instant: a move dialog's starting values. */
export function londonDateAndTime(iso: string): { date: string; time: string } {
  const w = new Date(wall(Date.parse(iso))).toISOString();
  return { date: w.slice(0, 10), time: w.slice(11, 16) };
}

/** HH:mm in London. */
export const londonTime = (iso: string) => londonDateAndTime(iso).time;

/** A day's heading: Today, Tomorrow, or e.g. "Thursday 3 December". */
export function bookingDayLabel(iso: string, now: Date = new Date()): string {
  if (dayLabel(iso, now) === 'Today') return 'Today';
  const tomorrowNoon = new Date(Date.parse(`${londonIsoDate(now)}T12:00:00Z`) + 86_400_000);
  if (londonIsoDate(iso) === londonIsoDate(tomorrowNoon)) return 'Tomorrow';
  return new Intl.DateTimeFormat('en-GB', { timeZone: TZ, weekday: 'long', day: 'numeric', month: 'long' }).format(new Date(iso));
}

/** Items (sorted by start) in London days, in order, each with its heading. */
export function groupByLondonDay<T extends { start: string }>(items: readonly T[], now: Date = new Date()): { day: string; label: string; items: T[] }[] {
  const out: { day: string; label: string; items: T[] }[] = [];
  for (const item of items) {
    const day = londonIsoDate(item.start);
    const last = out[out.length - 1];
    if (last && last.day === day) last.items.push(item);
    else out.push({ day, label: bookingDayLabel(item.start, now), items: [item] });
  }
  return out;
}

/** A free time's day, short: "Wed 2 Dec" (London). */
export const shortLondonDay = (iso: string) =>
  new Intl.DateTimeFormat('en-GB', { timeZone: TZ, weekday: 'short', day: 'numeric', month: 'short' }).format(new Date(iso));

/** A free time in full, as an owner scans it: "Wed 2 Dec · 12:30" (London). */
export const freeTimeLabel = (iso: string) => `${shortLondonDay(iso)} · ${londonTime(iso)}`;
