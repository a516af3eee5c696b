import type { MARK_STANDINGS, SCREEN_ACTIONS } from '../../contract/enums.js';

export type ScreenAction = (typeof SCREEN_ACTIONS)[number];

/** What the lists say about one caller for one business, read in one lookup (lookup.ts). */
export interface ScreeningFacts {
  /** The owner's own mark on the number, if any. */
  ownerMark: 'spam' | 'allow' | null;
  /** The number is on the box-wide list (enough active businesses' SPAM marks count). */
  boxListed: boolean;
  /** What the owner chose for screened callers. */
  action: ScreenAction;
}

export type ScreenVerdict = { screen: false } | { screen: true; by: 'owner' | 'box'; action: ScreenAction };

/**
 * Whether a call is screened before answering. The owner's word beats the box: their NOT SPAM
 * lets a box-listed number through, their SPAM screens it whatever other businesses think.
 */
export function screenVerdict(f: ScreeningFacts): ScreenVerdict {
  if (f.ownerMark === 'allow') return { screen: false };
  if (f.ownerMark === 'spam') return { screen: true, by: 'owner', action: f.action };
  if (f.boxListed) return { screen: true, by: 'box', action: f.action };
  return { screen: false };
}

/** The admin's threshold for the box-wide list (app_settings 'screening'). */
export interface BoxThresholds {
  /** Different active businesses whose SPAM mark on a number still counts. */
  spamMarks: number;
}

export const DEFAULT_THRESHOLDS: BoxThresholds = { spamMarks: 3 };

/**
 * How long an owner's SPAM mark counts towards the box-wide list (issue 53): a number that stops
 * calling falls off on its own, and a mark made to harm a number cannot hold it for ever. The
 * owner's own list keeps the mark as long as they do.
 */
export const MARK_WINDOW_DAYS = 90;

const DAY_MS = 24 * 60 * 60 * 1000;

/** The oldest moment a mark may carry and still count at `now`. */
export function markWindowStart(now: Date): Date {
  return new Date(now.getTime() - MARK_WINDOW_DAYS * DAY_MS);
}

/** A number is on the box-wide list when enough different businesses' marks count. */
export function boxListed(businesses: number, t: BoxThresholds): boolean {
  return businesses >= t.spamMarks;
}

/** Why one SPAM mark does or does not count, as the admin is shown it. */
export type MarkStanding = (typeof MARK_STANDINGS)[number];

/**
 * The rule core/screening/evidence.ts applies in SQL, for one mark: only an active owner's mark
 * counts (a suspended, expired or pending one's stops at once), only one newer than the admin's
 * clearing, and only one inside the window.
 */
export function markStanding(m: { markedAt: Date; ownerActive: boolean; clearedAt: Date | null }, now: Date): MarkStanding {
  if (!m.ownerActive) return 'owner-not-active';
  if (m.clearedAt && m.markedAt.getTime() <= m.clearedAt.getTime()) return 'before-clearing';
  if (m.markedAt.getTime() < markWindowStart(now).getTime()) return 'expired';
  return 'counts';
}
