// What the owner must know about their account on every dashboard page (SPEC.md §4 Account
// status and Trial). SPEC.md gives the Trial Status badge; the banner adds to it.
import type { AccountStatus } from '../../../contract/api';
import { TRIAL_WARNING_DAYS, daysRemaining, isTrialExpired, trialBadge } from './trial';

interface AccountUser {
  role: string;
  accountStatus: AccountStatus;
  trialExpiresAt: string | null;
}

export type AccountBanner =
  | { kind: 'trial-ending'; days: number; trialExpiresAt: string }
  | { kind: 'trial-over' }
  | { kind: 'expired' }
  | { kind: 'suspended' };

/**
 * The dashboard shell's banner, or null. An account that is not active does not answer calls
 * (the PBX plays the "unavailable" message), whatever its trial date says; a lapsed trial is
 * said as such (the server sets those accounts to expired on their next request).
 */
export function accountBanner(user: AccountUser, now: Date = new Date()): AccountBanner | null {
  if (user.role === 'admin') return null;
  if (user.accountStatus === 'suspended') return { kind: 'suspended' };
  const trialOver = user.trialExpiresAt !== null && isTrialExpired(user.trialExpiresAt, now);
  if (user.accountStatus === 'expired') return trialOver ? { kind: 'trial-over' } : { kind: 'expired' };
  if (user.accountStatus !== 'active') return { kind: 'expired' };
  if (trialOver) return { kind: 'trial-over' };
  if (user.trialExpiresAt) {
    const days = daysRemaining(user.trialExpiresAt, now);
    if (days <= TRIAL_WARNING_DAYS) return { kind: 'trial-ending', days, trialExpiresAt: user.trialExpiresAt };
  }
  return null;
}

/** The banners that say "Your line is not answering calls" (every one but the trial's warning). */
export function lineNotAnswering(banner: AccountBanner | null): boolean {
  return banner !== null && banner.kind !== 'trial-ending';
}

/** The Trial Status badge: "Expired" whenever the account is expired, else by the trial date. */
export function accountTrialBadge(accountStatus: AccountStatus, trialExpiresAt: string, now: Date = new Date()) {
  if (accountStatus === 'expired') return { text: 'Expired', urgent: true, expired: true };
  return trialBadge(trialExpiresAt, now);
}
