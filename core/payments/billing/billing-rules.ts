// The line follows the money (issue 59, BILLING=stripe): what an account's subscription means for
// its line, its banner and its reminders. Pure: the facts and the clock come in, a decision goes
// out; core/payments/billing/ applies it. Only what Stripe has stated (a status it reported) can
// pause a line: a Stripe that cannot be reached changes no fact here, so it pauses nothing.
import type { AccountStatus } from '../../../contract/api.js';
import type { SubscriptionStatus } from '../../../contract/enums.js';
import { DAY_MS } from '../../time/london-time.js';

/** The subscription as the box last stored it (billing_subscriptions); null: no card was ever added. */
export interface SubscriptionFacts {
  status: SubscriptionStatus | null;
  pastDueSince: Date | null;
  trialEnd: Date | null;
  currentPeriodEnd: Date | null;
  cancelAtPeriodEnd: boolean;
}

export interface AccountFacts {
  accountStatus: AccountStatus;
  trialExpiresAt: Date | null;
}

/**
 * Where the money leaves the line: `paid` (a card on a trialing or active subscription),
 * `grace` (a failed payment, still inside the grace period), `lapsed` (Stripe says it is over or
 * unpaid past the grace), `none` (no subscription that counts: the trial's own rule governs).
 */
export type Standing = 'paid' | 'grace' | 'lapsed' | 'none';

/** Reminders go this long before a trial's end or a renewal (the customer's trial warning, SPEC §Trials). */
export const REMINDER_DAYS = 3;

export function graceEndsAt(sub: SubscriptionFacts | null, graceDays: number): Date | null {
  if (sub?.status !== 'past_due' || !sub.pastDueSince) return null;
  return new Date(sub.pastDueSince.getTime() + graceDays * DAY_MS);
}

export function standing(sub: SubscriptionFacts | null, now: Date, graceDays: number): Standing {
  switch (sub?.status ?? null) {
    case 'trialing':
    case 'active':
      return 'paid';
    case 'past_due': {
      const ends = graceEndsAt(sub, graceDays);
      // No start stored yet (the row is being written): the grace has only just begun.
      return !ends || now.getTime() < ends.getTime() ? 'grace' : 'lapsed';
    }
    case 'canceled':
    case 'unpaid':
    case 'incomplete_expired':
    case 'paused':
      return 'lapsed';
    // 'incomplete' (the first payment is still being made) and no subscription at all.
    default:
      return 'none';
  }
}

/**
 * What to change on the account, null for nothing. Only 'active' and 'expired' accounts follow
 * the money: an admin's suspension, a pending or rejected sign-up are never undone by a card.
 * A paying subscription clears trial_expires_at, so the trial's end (housekeeping's
 * expireTrials, the call routing rule) no longer pauses the line: Stripe's own trial_end says
 * when the first payment falls, and the SPEC trial box, which shows only with a trial, steps aside.
 */
export function accountChange(sub: SubscriptionFacts | null, account: AccountFacts, now: Date, graceDays: number): { accountStatus?: 'active' | 'expired'; trialExpiresAt?: null } | null {
  if (account.accountStatus !== 'active' && account.accountStatus !== 'expired') return null;
  const s = standing(sub, now, graceDays);
  if (s === 'none') return null;
  const want = s === 'lapsed' ? 'expired' : 'active';
  const change: { accountStatus?: 'active' | 'expired'; trialExpiresAt?: null } = {};
  if (account.accountStatus !== want) change.accountStatus = want;
  if (s !== 'lapsed' && account.trialExpiresAt) change.trialExpiresAt = null;
  return Object.keys(change).length ? change : null;
}

/** "9 Dec": the day a banner names, in London. */
function bannerDay(t: Date): string {
  return t.toLocaleDateString('en-GB', { timeZone: 'Europe/London', day: 'numeric', month: 'short' });
}

/** The banner above every page of the console, null for none. */
export function billingBanner(sub: SubscriptionFacts | null, account: AccountFacts, now: Date, graceDays: number): string | null {
  const s = standing(sub, now, graceDays);
  if (s === 'grace') {
    const ends = graceEndsAt(sub, graceDays) ?? new Date(now.getTime() + graceDays * DAY_MS);
    return `Your last payment failed: update your card by ${bannerDay(ends)} or your line pauses`;
  }
  if (s === 'lapsed') {
    return sub?.status === 'canceled' || sub?.status === 'incomplete_expired'
      ? 'Your plan has ended and your line is paused: add a card to turn it back on'
      : 'Your last payment failed and your line is paused: update your card to turn it back on';
  }
  if (s === 'paid') {
    if (sub?.cancelAtPeriodEnd && sub.currentPeriodEnd) return `Your plan is cancelled and ends on ${bannerDay(sub.currentPeriodEnd)}: you can resume it until then`;
    return null;
  }
  if (!account.trialExpiresAt) return null;
  if (account.trialExpiresAt.getTime() <= now.getTime()) return 'Your free trial has ended: add a card to turn your line back on';
  if (account.trialExpiresAt.getTime() - now.getTime() <= REMINDER_DAYS * DAY_MS) return `Your free trial ends on ${bannerDay(account.trialExpiresAt)}: add a card to keep your line answering`;
  return null;
}

/** The trial's end to remind about, when a trial without a card ends within REMINDER_DAYS; else null. */
export function trialReminderFor(sub: SubscriptionFacts | null, account: AccountFacts, now: Date, graceDays: number): Date | null {
  if (account.accountStatus !== 'active' || !account.trialExpiresAt) return null;
  if (standing(sub, now, graceDays) !== 'none') return null;
  const left = account.trialExpiresAt.getTime() - now.getTime();
  return left > 0 && left <= REMINDER_DAYS * DAY_MS ? account.trialExpiresAt : null;
}

/** The payment day to remind about, when a subscription that will renew takes a payment within REMINDER_DAYS; else null. */
export function renewalReminderFor(sub: SubscriptionFacts | null, now: Date): Date | null {
  if (!sub || (sub.status !== 'active' && sub.status !== 'trialing') || sub.cancelAtPeriodEnd || !sub.currentPeriodEnd) return null;
  const left = sub.currentPeriodEnd.getTime() - now.getTime();
  return left > 0 && left <= REMINDER_DAYS * DAY_MS ? sub.currentPeriodEnd : null;
}

/** Subscription mode's trial_end: the account's own trial, carried over while it is still ahead (Stripe wants it 48 h or more away, so a nearer end bills at once). */
export function checkoutTrialEnd(trialExpiresAt: Date | null, now: Date): number | undefined {
  if (!trialExpiresAt || trialExpiresAt.getTime() - now.getTime() < 2 * DAY_MS) return undefined;
  return Math.floor(trialExpiresAt.getTime() / 1000);
}
