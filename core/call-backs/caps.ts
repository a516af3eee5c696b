import { londonWall, londonWallToUtc } from '../booking/rules/london-wall.js';

// How many call-backs the box dials (issue 56), per business and for the whole box. The trunk
// pays for each, and a caller's CALL reply can be sent from any number, so these bound what a
// flood of replies, or a fault that re-queues call-backs, can run up. Like the other outbound
// limits (core/outbound/permit.ts counts an owner's minutes per London day; core/caller-texts
// counts texts per London day) the daily caps run per London day; the hourly ones over the last
// 60 minutes, so a burst is spread rather than refused. Every try counts, a second try included.

export interface CallBackCaps {
  perOwnerHour: number;
  perOwnerDay: number;
  perBoxHour: number;
  perBoxDay: number;
}

/**
 * A sole trader misses perhaps ten to thirty calls on a busy day, and only those who ask are
 * rung back, twice at most: 10 an hour and 40 a day per business leave room for that and stop a
 * flood. The box's caps are for an appliance serving a few dozen businesses on one trunk.
 */
export const CALL_BACK_CAPS: CallBackCaps = { perOwnerHour: 10, perOwnerDay: 40, perBoxHour: 60, perBoxDay: 400 };

const HOUR_MS = 3_600_000;

export type CapReached = 'owner-hour-cap' | 'owner-day-cap' | 'box-hour-cap' | 'box-day-cap';

/** The call-backs dialled lately: every try's instant within the last 24 hours (the daily caps bound the list). */
export interface RecentDials {
  owner: readonly Date[];
  box: readonly Date[];
}

/**
 * The first cap `t` is at, and the instant the dials already made let one more through: for the
 * hour, when enough of the last hour's dials are an hour old; for the day, the next London
 * midnight. Null when under every cap.
 */
export function capAt(t: number, dials: RecentDials, caps: CallBackCaps): { reached: CapReached; freeAt: number } | null {
  const scopes: Array<[readonly Date[], number, number, CapReached, CapReached]> = [
    [dials.owner, caps.perOwnerHour, caps.perOwnerDay, 'owner-hour-cap', 'owner-day-cap'],
    [dials.box, caps.perBoxHour, caps.perBoxDay, 'box-hour-cap', 'box-day-cap'],
  ];
  const today = londonWall(t).day;
  for (const [list, hourCap, dayCap, hourReached, dayReached] of scopes) {
    const times = list.map((d) => d.getTime()).filter((x) => x <= t);
    if (times.filter((x) => londonWall(x).day === today).length >= dayCap) return { reached: dayReached, freeAt: londonWallToUtc(today + 1, 0) };
    const lastHour = times.filter((x) => x > t - HOUR_MS).sort((a, b) => a - b);
    // Under the cap once all but cap - 1 of them are over an hour old.
    if (lastHour.length >= hourCap) return { reached: hourReached, freeAt: lastHour[lastHour.length - hourCap]! + HOUR_MS };
  }
  return null;
}
