import { WEEKDAYS, type CallHandlingSettings, type OpeningSpan, type Weekday } from '../../contract/call-handling.js';
import { londonOffsetMs } from '../time/london-time.js';
import { isBankHoliday } from './holidays.js';
import type { HandlingPeriod } from '../../contract/enums.js';

/** The wall clock in London at an instant: the owner's hours are written in it. */
interface LondonClock {
  /** YYYY-MM-DD */
  date: string;
  weekday: Weekday;
  /** Minutes since local midnight, 0–1439. */
  minute: number;
}

function londonClock(now: Date): LondonClock {
  // The project's one London rule (core/time/london-time.ts): summer time from 01:00 UTC on
  // the last Sunday of March to 01:00 UTC on the last Sunday of October.
  const local = new Date(now.getTime() + londonOffsetMs(now.getTime()));
  // getUTCDay: 0 = Sunday; WEEKDAYS starts on Monday.
  const weekday = WEEKDAYS[(local.getUTCDay() + 6) % 7]!;
  return { date: local.toISOString().slice(0, 10), weekday, minute: local.getUTCHours() * 60 + local.getUTCMinutes() };
}

export const toMinute = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/**
 * A span is open from its opening minute up to, not including, its closing minute; a span
 * closing at 23:59 runs to midnight, since a time field cannot say 24:00 and an owner who
 * writes 23:59 means "until the end of the day".
 */
function spanCovers(span: OpeningSpan, minute: number): boolean {
  const close = span.close === '23:59' ? 24 * 60 : toMinute(span.close);
  return minute >= toMinute(span.open) && minute < close;
}

/**
 * Open or closed at `now`. Hours off: always open. Otherwise a bank holiday of a chosen
 * nation is closed all day, and any other day is open inside one of its spans.
 */
export function periodAt(settings: Pick<CallHandlingSettings, 'hoursEnabled' | 'hours' | 'holidayNations'>, now: Date): HandlingPeriod {
  if (!settings.hoursEnabled) return 'open';
  const clock = londonClock(now);
  if (isBankHoliday(settings.holidayNations, clock.date)) return 'closed';
  return settings.hours[clock.weekday].some((s) => spanCovers(s, clock.minute)) ? 'open' : 'closed';
}
