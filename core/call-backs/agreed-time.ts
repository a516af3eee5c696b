import { londonWall, londonWallToUtc, weekdayOfDay } from '../booking/rules/london-wall.js';
import { namedClockMinute, parseWish } from '../booking/rules/wish.js';
import { NO_TIME_LINE, ringBackLine } from './agreed-words.js';
import { minutesFromNow } from './in-a-while.js';
import { nextOpenMoment, OPEN_HORIZON_DAYS, type BusinessHours } from './open-moment.js';

// The time a call-back is agreed for (issue 56): the caller's words ("after four", "tomorrow
// morning", "in an hour", "as soon as you can") turned into one instant inside the business's
// hours by code, as booking times are (the same wish parser), never by the model.

/** The owner's window by default: a caller who named no time is rung by the agent this long after asking, the owner first. */
const OWNER_WINDOW_MINUTES = 15;

const MINUTE_MS = 60_000;

export interface AgreedTimeQuery {
  /** What the caller said about when, as heard ('' when nothing). */
  words: string;
  now: Date;
  hours: BusinessHours;
  /** The owner's window in minutes (OWNER_WINDOW_MINUTES when unset). */
  ownerWindowMinutes?: number;
}

/** The instant agreed and the sentence the agent says to agree it; no instant when the business opens on none of the next OPEN_HORIZON_DAYS days. */
export type AgreedTime = { at: Date; said: string } | { at: null; said: string };

/**
 * The call-back's time:
 * - "in an hour": then, or the next open moment after it;
 * - a clock time ("after four", "at 2", "around two"): that time on the first day the wish allows
 *   on which the business is open then, or the first open moment after it; a time with no day
 *   that has already passed today ("after four" said at five) means a later day, never now;
 * - a day or part of one ("tomorrow morning", "this afternoon", "Monday"): its first open moment,
 *   not before the owner's window is over;
 * - nothing understood ("as soon as you can", "now"): the owner's window, then the next open moment.
 */
export function agreedTime(q: AgreedTimeQuery): AgreedTime {
  const now = q.now.getTime();
  const soonest = now + (q.ownerWindowMinutes ?? OWNER_WINDOW_MINUTES) * MINUTE_MS;
  const agreed = (at: Date | null): AgreedTime => (at ? { at, said: ringBackLine(at, q.now) } : { at: null, said: NO_TIME_LINE });

  const wait = minutesFromNow(q.words);
  if (wait !== undefined) return agreed(nextOpenMoment(q.hours, new Date(now + wait * MINUTE_MS)));

  const wish = parseWish(q.words, now);
  const clock = namedClockMinute(q.words);
  const named = clock !== undefined || Object.values(wish).some((v) => v !== undefined);
  if (!named) return agreed(nextOpenMoment(q.hours, new Date(soonest)));

  // A time the caller named is kept to the minute; a day or part of one waits for the owner's window.
  const earliest = clock !== undefined ? now : soonest;
  const target = clock ?? wish.fromMinute ?? 0;
  const end = wish.toMinute ?? 24 * 60;
  const dayless = wish.fromDay === undefined && wish.weekdays === undefined;
  const today = londonWall(now).day;
  const firstDay = Math.max(today, wish.fromDay ?? today);
  const lastDay = Math.min(today + OPEN_HORIZON_DAYS, wish.toDay ?? today + OPEN_HORIZON_DAYS);

  for (let day = firstDay; day <= lastDay; day++) {
    if (wish.weekdays && !wish.weekdays.includes(weekdayOfDay(day))) continue;
    const at = londonWallToUtc(day, target);
    if (dayless && clock !== undefined && day === today && at < now) continue;
    const open = nextOpenMoment(q.hours, new Date(Math.max(at, earliest)));
    if (!open) break;
    const wall = londonWall(open.getTime());
    if (wall.day === day && wall.minute < end) return agreed(open);
  }
  // No day the caller allowed is open at the time they named ("tonight", at a business that
  // shuts at half five): the first open moment after it, which the agent says back to them.
  const from = dayless && clock !== undefined && londonWallToUtc(today, target) < now ? londonWallToUtc(today + 1, target) : londonWallToUtc(firstDay, target);
  return agreed(nextOpenMoment(q.hours, new Date(Math.max(from, earliest))));
}
