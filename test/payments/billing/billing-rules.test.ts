import { describe, expect, it } from 'vitest';
import { accountChange, billingBanner, checkoutTrialEnd, renewalReminderFor, standing, trialReminderFor, type AccountFacts, type SubscriptionFacts } from '../../../core/payments/billing/billing-rules.js';

// The line follows the money, decided on a fake clock: the instants below are the whole world.
const DAY = 86_400_000;
const t0 = new Date('2026-12-02T10:00:00Z');
const at = (days: number) => new Date(t0.getTime() + days * DAY);
const GRACE = 7;

const sub = (over: Partial<SubscriptionFacts>): SubscriptionFacts => ({ status: 'active', pastDueSince: null, trialEnd: null, currentPeriodEnd: at(30), cancelAtPeriodEnd: false, ...over });
const trialAccount: AccountFacts = { accountStatus: 'active', trialExpiresAt: at(7) };

describe('the line follows the money', () => {
  it('a trial without a card is the trial rule\'s alone: nothing here pauses or resumes it', () => {
    expect(standing(null, at(8), GRACE)).toBe('none');
    expect(accountChange(null, { accountStatus: 'expired', trialExpiresAt: at(7) }, at(8), GRACE)).toBeNull();
    expect(accountChange(sub({ status: 'incomplete' }), trialAccount, at(1), GRACE)).toBeNull();
  });

  it('a card added during the trial keeps the account active and clears the trial\'s end, so it no longer pauses the line', () => {
    expect(accountChange(sub({ status: 'trialing', trialEnd: at(7) }), trialAccount, at(1), GRACE)).toEqual({ trialExpiresAt: null });
  });

  it('a card added after the trial lapsed resumes the line at once', () => {
    expect(accountChange(sub({ status: 'active' }), { accountStatus: 'expired', trialExpiresAt: at(-1) }, t0, GRACE)).toEqual({ accountStatus: 'active', trialExpiresAt: null });
  });

  it('a failed payment keeps the line answering for the grace days, then pauses it; paid resumes it', () => {
    const failed = sub({ status: 'past_due', pastDueSince: t0 });
    const account: AccountFacts = { accountStatus: 'active', trialExpiresAt: null };
    expect(accountChange(failed, account, at(6.99), GRACE)).toBeNull();
    expect(accountChange(failed, account, at(7), GRACE)).toEqual({ accountStatus: 'expired' });
    expect(accountChange(sub({ status: 'active' }), { accountStatus: 'expired', trialExpiresAt: null }, at(8), GRACE)).toEqual({ accountStatus: 'active' });
  });

  it('a cancelled plan runs to the period\'s end (still active), then Stripe\'s ended subscription pauses the line', () => {
    const account: AccountFacts = { accountStatus: 'active', trialExpiresAt: null };
    expect(accountChange(sub({ status: 'active', cancelAtPeriodEnd: true, currentPeriodEnd: at(10) }), account, at(9), GRACE)).toBeNull();
    expect(accountChange(sub({ status: 'canceled' }), account, at(10), GRACE)).toEqual({ accountStatus: 'expired' });
  });

  it('never undoes an admin\'s suspension or a sign-up still pending', () => {
    expect(accountChange(sub({ status: 'active' }), { accountStatus: 'suspended', trialExpiresAt: null }, t0, GRACE)).toBeNull();
    expect(accountChange(sub({ status: 'canceled' }), { accountStatus: 'pending_approval', trialExpiresAt: null }, t0, GRACE)).toBeNull();
  });
});

describe('the banner', () => {
  it('names the day the line pauses after a failed payment, in London', () => {
    expect(billingBanner(sub({ status: 'past_due', pastDueSince: new Date('2026-12-02T10:00:00Z') }), trialAccount, at(1), GRACE)).toBe('Your last payment failed: update your card by 9 Dec or your line pauses');
  });

  it('is gone once paid', () => {
    expect(billingBanner(sub({ status: 'active' }), { accountStatus: 'active', trialExpiresAt: null }, t0, GRACE)).toBeNull();
  });

  it('says the line is paused after the grace, and after a plan ended', () => {
    expect(billingBanner(sub({ status: 'past_due', pastDueSince: t0 }), trialAccount, at(8), GRACE)).toMatch(/^Your last payment failed and your line is paused/);
    expect(billingBanner(sub({ status: 'canceled' }), trialAccount, t0, GRACE)).toMatch(/^Your plan has ended/);
  });

  it('warns of a trial ending within 3 days without a card, not before', () => {
    expect(billingBanner(null, trialAccount, at(3), GRACE)).toBeNull();
    expect(billingBanner(null, trialAccount, at(4.5), GRACE)).toBe('Your free trial ends on 9 Dec: add a card to keep your line answering');
    expect(billingBanner(null, trialAccount, at(7.5), GRACE)).toBe('Your free trial has ended: add a card to turn your line back on');
  });
});

describe('reminders', () => {
  it('a trial without a card is reminded 3 days before its end, and not with a card', () => {
    expect(trialReminderFor(null, trialAccount, at(3.9), GRACE)).toBeNull();
    expect(trialReminderFor(null, trialAccount, at(4), GRACE)).toEqual(at(7));
    expect(trialReminderFor(sub({ status: 'trialing' }), trialAccount, at(4), GRACE)).toBeNull();
    expect(trialReminderFor(null, trialAccount, at(7.1), GRACE)).toBeNull();
  });

  it('a renewal is reminded 3 days before, unless the plan was cancelled', () => {
    expect(renewalReminderFor(sub({ currentPeriodEnd: at(30) }), at(26))).toBeNull();
    expect(renewalReminderFor(sub({ currentPeriodEnd: at(30) }), at(27))).toEqual(at(30));
    expect(renewalReminderFor(sub({ currentPeriodEnd: at(30), cancelAtPeriodEnd: true }), at(27))).toBeNull();
  });
});

describe('checkout\'s trial', () => {
  it('carries the account\'s trial end while it is far enough ahead for Stripe, so a card added charges nothing until then', () => {
    expect(checkoutTrialEnd(at(5), t0)).toBe(Math.floor(at(5).getTime() / 1000));
    expect(checkoutTrialEnd(at(1), t0)).toBeUndefined();
    expect(checkoutTrialEnd(null, t0)).toBeUndefined();
  });
});
