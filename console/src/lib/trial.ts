// Trial rules (SPEC.md §4 Trial, §9 Trials).
const DAY_MS = 24 * 60 * 60 * 1000;
export const TRIAL_WARNING_DAYS = 3;
const TRIAL_EXTENSION_DAYS = 7;

export function isTrialExpired(trialExpiresAt: string | Date, now: Date = new Date()): boolean {
  return new Date(trialExpiresAt).getTime() < now.getTime();
}

/** The remaining time in days, rounded up. */
export function daysRemaining(trialExpiresAt: string | Date, now: Date = new Date()): number {
  return Math.ceil((new Date(trialExpiresAt).getTime() - now.getTime()) / DAY_MS);
}

/** The Trial Status badge: its text, and whether it is highlighted (expired, or 3 days or fewer). */
export function trialBadge(trialExpiresAt: string | Date, now: Date = new Date()): { text: string; urgent: boolean; expired: boolean } {
  if (isTrialExpired(trialExpiresAt, now)) return { text: 'Expired', urgent: true, expired: true };
  const days = daysRemaining(trialExpiresAt, now);
  return { text: `${days} ${days === 1 ? 'day' : 'days'} remaining`, urgent: days <= TRIAL_WARNING_DAYS, expired: false };
}

/** The admin "+14d" button: now + 7 days, not added to the old date (SPEC.md §4). */
export function extendedTrialExpiry(now: Date = new Date()): string {
  return new Date(now.getTime() + TRIAL_EXTENSION_DAYS * DAY_MS).toISOString();
}
