import { describe, expect, it } from 'vitest';
import type { ApiBilling } from '../../../contract/payments';
import { SUBSCRIPTION_STATUSES } from '../../../contract/enums';
import { billingReturnLine, invoiceStatus, periodEnd, planActions, planState, planWords } from './billing-words';

const now = new Date('2026-12-02T12:00:00Z');
const billing = (over: Partial<ApiBilling> = {}): ApiBilling => ({
  enabled: true,
  plan: { name: 'Professional Plan', amountPence: 3900, currency: 'gbp', interval: 'month' },
  status: null,
  hasCard: false,
  trialEndsAt: '2026-12-07T12:00:00Z',
  nextPaymentAt: null,
  periodEndsAt: null,
  cancelAtPeriodEnd: false,
  graceEndsAt: null,
  banner: null,
  invoices: [],
  ...over,
});

describe('planWords', () => {
  it("says the operator's price", () => {
    expect(planWords(billing().plan!)).toBe('Professional Plan, £39.00 a month');
  });
});

describe('planState', () => {
  it('a trial without a card, and after it ended', () => {
    expect(planState(billing(), now)).toEqual({ text: 'Free trial until 07/12/2026', tone: 'green' });
    expect(planState(billing({ trialEndsAt: '2026-12-01T12:00:00Z' }), now)).toEqual({ text: 'Free trial ended on 01/12/2026', tone: 'red' });
  });
  it('a trial with a card says when the first payment is', () => {
    expect(planState(billing({ status: 'trialing', hasCard: true, nextPaymentAt: '2026-12-07T12:00:00Z' }), now).text).toBe('Free trial until 07/12/2026 (first payment on 07/12/2026)');
  });
  it('active, failed, cancelling and cancelled', () => {
    expect(planState(billing({ status: 'active', hasCard: true, nextPaymentAt: '2027-01-07T12:00:00Z' }), now)).toEqual({ text: 'Active — next payment on 07/01/2027', tone: 'green' });
    expect(planState(billing({ status: 'past_due', hasCard: true, graceEndsAt: '2026-12-09T12:00:00Z' }), now)).toEqual({ text: 'Payment failed — update your card by 09/12/2026', tone: 'red' });
    expect(planState(billing({ status: 'active', hasCard: true, cancelAtPeriodEnd: true, nextPaymentAt: '2027-01-07T12:00:00Z' }), now)).toEqual({ text: 'Cancels on 07/01/2027', tone: 'amber' });
    expect(planState(billing({ status: 'canceled', hasCard: true }), now)).toEqual({ text: 'Cancelled', tone: 'gray' });
  });
  it('a cancelled plan says the day its period ends, though it has no next payment (the answer after Cancel)', () => {
    const cancelled = billing({ status: 'active', hasCard: true, cancelAtPeriodEnd: true, nextPaymentAt: null, trialEndsAt: null, periodEndsAt: '2027-01-09T12:00:00Z' });
    expect(planState(cancelled, now)).toEqual({ text: 'Cancels on 09/01/2027', tone: 'amber' });
    expect(planState({ ...cancelled, status: 'trialing' }, now)).toEqual({ text: 'Cancels on 09/01/2027', tone: 'amber' });
  });
  it('has words for every status Stripe gives', () => {
    for (const status of SUBSCRIPTION_STATUSES) expect(planState(billing({ status, hasCard: true }), now).text).toMatch(/\w/);
  });
});

describe('periodEnd', () => {
  it("prefers Stripe's period end over the next payment and the trial's end", () => {
    expect(periodEnd(billing({ periodEndsAt: '2027-01-09T12:00:00Z', nextPaymentAt: '2027-01-08T12:00:00Z' }))).toBe('2027-01-09T12:00:00Z');
    expect(periodEnd(billing({ nextPaymentAt: '2027-01-08T12:00:00Z' }))).toBe('2027-01-08T12:00:00Z');
    expect(periodEnd(billing())).toBe('2026-12-07T12:00:00Z');
  });
});

describe('planActions', () => {
  it('offers a card until there is one, and Cancel while the plan runs', () => {
    expect(planActions(billing())).toEqual({ addCard: 'Add a card', cancel: false, resume: false });
    expect(planActions(billing({ status: 'trialing', hasCard: true }))).toEqual({ addCard: null, cancel: true, resume: false });
    expect(planActions(billing({ status: 'active', hasCard: true }))).toEqual({ addCard: null, cancel: true, resume: false });
  });
  it('a failed payment asks for a new card; a cancelled plan can be kept until it ends, then started again', () => {
    expect(planActions(billing({ status: 'past_due', hasCard: true }))).toEqual({ addCard: 'Update your card', cancel: true, resume: false });
    expect(planActions(billing({ status: 'active', hasCard: true, cancelAtPeriodEnd: true }))).toEqual({ addCard: null, cancel: false, resume: true });
    expect(planActions(billing({ status: 'canceled', hasCard: true }))).toEqual({ addCard: 'Add a card', cancel: false, resume: false });
  });
});

describe('invoiceStatus', () => {
  it("words Stripe's statuses", () => {
    expect(invoiceStatus('paid')).toEqual({ text: 'Paid', tone: 'green' });
    expect(invoiceStatus('open').text).toBe('Due');
    expect(invoiceStatus('uncollectible').text).toBe('Not paid');
    expect(invoiceStatus('void').text).toBe('Void');
    expect(invoiceStatus('draft').text).toBe('Draft');
  });
});

describe('the return from Stripe Checkout in Account Settings', () => {
  it('thanks the owner until the server shows the card; other returns and a shown card say nothing', () => {
    expect(billingReturnLine('?billing=added', { hasCard: false })).toBe('Thank you: your card is being confirmed with Stripe. Your plan shows here as soon as Stripe tells the box.');
    expect(billingReturnLine('?billing=added', { hasCard: true })).toBeNull();
    expect(billingReturnLine('?billing=cancelled', { hasCard: false })).toBeNull();
    expect(billingReturnLine('', { hasCard: false })).toBeNull();
  });
});
