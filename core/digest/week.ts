import { DAY_MS, HOUR_MS, dayNumberToDate, londonDayNumber, londonOffsetMs } from '../time/london-time.js';

/** The digest goes out at this London hour on Mondays. */
const DIGEST_HOUR = 8;
/** node-cron's expression for it, run in the Europe/London time zone. */
export const DIGEST_CRON = `0 ${DIGEST_HOUR} * * 1`;

/** One London calendar day of the week a digest covers. */
interface DigestDay {
  /** YYYY-MM-DD (London). */
  date: string;
  /** UTC instants of London midnight at its start and end: 23, 24 or 25 hours apart. */
  start: number;
  end: number;
}

/** The digest due in the London week containing an instant, and the week it reports on. */
export interface DigestWeek {
  /** This week's Monday (London, YYYY-MM-DD): with the owner, the key a digest is claimed under. */
  weekOf: string;
  /** Monday 08:00 London this week, as a UTC instant: the digest is not sent before it. */
  dueAt: number;
  /** The seven London days of the week before, Monday first. */
  days: DigestDay[];
  /** [from, to): London midnight starting last week's Monday to this week's. */
  from: number;
  to: number;
}

/**
 * UTC instant of London midnight starting day number `day`. The clocks change at 01:00 UTC,
 * never at 00:00, so the offset in force a moment before 00:00 UTC is London's at midnight.
 */
export function londonMidnightUtc(day: number): number {
  const utc = day * DAY_MS;
  return utc - londonOffsetMs(utc - 1);
}

/** Day number of the Monday of the (ISO, Monday-first) week containing London day `day`: 1970-01-05 was a Monday. */
function mondayOf(day: number): number {
  return day - ((day + 3) % 7);
}

/**
 * Which digest the week around `now` owes, in London time whatever the season: the week of a
 * clock change is 167 or 169 hours long and the Monday after it is due at 07:00 or 08:00 UTC.
 */
export function digestWeek(now: number): DigestWeek {
  const monday = mondayOf(londonDayNumber(now));
  // Monday 08:00 is a day and more after any change (Sundays 01:00 UTC): its offset is the week's.
  const at8Utc = monday * DAY_MS + DIGEST_HOUR * HOUR_MS;
  const days: DigestDay[] = [];
  for (let d = monday - 7; d < monday; d++) days.push({ date: dayNumberToDate(d), start: londonMidnightUtc(d), end: londonMidnightUtc(d + 1) });
  return { weekOf: dayNumberToDate(monday), dueAt: at8Utc - londonOffsetMs(at8Utc), days, from: days[0]!.start, to: days[6]!.end };
}
