import { WEEKDAYS, type CallHandlingSettings } from '../../contract/call-handling.js';
import { londonWall, londonWallToUtc, weekdayOfDay } from '../booking/rules/london-wall.js';
import { periodAt, toMinute } from '../call-handling/schedule.js';

// When the business is open for the box to ring a caller back: the owner's written hours and
// bank holidays (Call handling), read by the one hours calendar (core/call-handling/schedule.ts).
// The hours bound call-backs even while the owner's "opening hours" switch is off: that switch
// chooses how calls are answered, and with it off the written hours (Monday to Friday, 09:00 to
// 17:30 unless changed) are still the only times the box knows the business keeps. A caller is
// never rung at night because an owner never opened the section.

/** The part of the owner's call handling a call-back keeps to. */
export type BusinessHours = Pick<CallHandlingSettings, 'hours' | 'holidayNations'>;

/** How far ahead an open moment is looked for: past two weeks closed, a call-back is moot. */
export const OPEN_HORIZON_DAYS = 14;

/** Whether the business is open at `at` by its written hours and bank holidays. */
function isOpenAt(hours: BusinessHours, at: Date): boolean {
  return periodAt({ ...hours, hoursEnabled: true }, at) === 'open';
}

/**
 * The first instant at or after `from` when the business is open: `from` itself when open, else
 * the opening of the next span on a day that is not a bank holiday. Null when none opens within
 * OPEN_HORIZON_DAYS London days. Each opening is turned into an instant on its own day, so the
 * hours keep their local times either side of a clock change.
 */
export function nextOpenMoment(hours: BusinessHours, from: Date): Date | null {
  if (isOpenAt(hours, from)) return from;
  const first = londonWall(from.getTime()).day;
  for (let day = first; day <= first + OPEN_HORIZON_DAYS; day++) {
    const openings = hours.hours[WEEKDAYS[weekdayOfDay(day)]!].map((span) => toMinute(span.open)).sort((a, b) => a - b);
    for (const minute of openings) {
      const at = new Date(londonWallToUtc(day, minute));
      // periodAt has the last word: it knows the bank holidays.
      if (at.getTime() > from.getTime() && isOpenAt(hours, at)) return at;
    }
  }
  return null;
}
