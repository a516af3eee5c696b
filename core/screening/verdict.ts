import type { SCREEN_ACTIONS } from '../../contract/enums.js';

export type ScreenAction = (typeof SCREEN_ACTIONS)[number];

/** What the lists say about one caller for one business, read in one lookup (lookup.ts). */
export interface ScreeningFacts {
  /** The owner's own mark on the number, if any. */
  ownerMark: 'spam' | 'allow' | null;
  /** The number is on the box-wide list (enough businesses marked it, or had nuisance calls from it). */
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

/** The admin's thresholds for the box-wide list (app_settings 'screening'). */
export interface BoxThresholds {
  /** Different businesses that marked a number SPAM. */
  spamMarks: number;
  /** Different businesses with a nuisance call (sales, recorded, silent) from the number in the last 24 hours. */
  nuisanceBusinesses: number;
}

export const DEFAULT_THRESHOLDS: BoxThresholds = { spamMarks: 3, nuisanceBusinesses: 3 };

/** A number is on the box-wide list when either count reaches its threshold. */
export function boxListed(counts: { businesses: number; nuisanceBusinesses: number }, t: BoxThresholds): boolean {
  return counts.businesses >= t.spamMarks || counts.nuisanceBusinesses >= t.nuisanceBusinesses;
}
