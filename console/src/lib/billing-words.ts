// The operator's plan in the owner's words (issue 59, BILLING=stripe): Account Settings' plan
// section and what it offers. The answer's shape is contract/schemas/payments.ts ApiBillingSchema;
// statuses are Stripe's (contract/enums.ts SUBSCRIPTION_STATUSES).
import type { ApiBilling, ApiBillingInvoice } from '../../../contract/payments';
import { formatDate } from './format';
import { formatPence } from './money';

type Tone = 'green' | 'amber' | 'red' | 'gray';

/** "Professional Plan, £39.00 a month", from the operator's Stripe price. */
export function planWords(plan: NonNullable<ApiBilling['plan']>): string {
  return `${plan.name}, ${formatPence(plan.amountPence, plan.currency)} a ${plan.interval}`;
}

/**
 * When the period paid for ends: Stripe's period end, else the next payment or the trial's end
 * (a cancelled plan has no next payment, so only the period's end can say when it stops).
 */
export function periodEnd(b: ApiBilling): string | null {
  return b.periodEndsAt ?? b.nextPaymentAt ?? b.trialEndsAt;
}

/**
 * Where the plan stands, in one sentence and a colour. Cancelling runs to the period's end, so a
 * plan set to cancel says when; a failed payment says by when to pay before the line pauses.
 */
export function planState(b: ApiBilling, now: Date = new Date()): { text: string; tone: Tone } {
  const ends = periodEnd(b);
  if (b.cancelAtPeriodEnd && b.status !== 'canceled' && ends) return { text: `Cancels on ${formatDate(ends)}`, tone: 'amber' };
  switch (b.status) {
    case null:
    case 'trialing': {
      if (!b.trialEndsAt) return b.status ? { text: 'Free trial', tone: 'green' } : { text: 'No card added yet', tone: 'gray' };
      if (new Date(b.trialEndsAt).getTime() <= now.getTime()) return { text: `Free trial ended on ${formatDate(b.trialEndsAt)}`, tone: 'red' };
      const then = b.hasCard && b.nextPaymentAt ? ` (first payment on ${formatDate(b.nextPaymentAt)})` : '';
      return { text: `Free trial until ${formatDate(b.trialEndsAt)}${then}`, tone: 'green' };
    }
    case 'active':
      return { text: b.nextPaymentAt ? `Active — next payment on ${formatDate(b.nextPaymentAt)}` : 'Active', tone: 'green' };
    case 'past_due':
    case 'unpaid':
      return { text: b.graceEndsAt ? `Payment failed — update your card by ${formatDate(b.graceEndsAt)}` : 'Payment failed — update your card', tone: 'red' };
    case 'incomplete':
      return { text: 'Waiting for your first payment', tone: 'amber' };
    case 'paused':
      return { text: 'Paused — add a card to answer calls again', tone: 'red' };
    case 'canceled':
    case 'incomplete_expired':
      return { text: 'Cancelled', tone: 'gray' };
  }
}

/** What the section offers: a card (none yet, or the one on file failed or the plan ended), Cancel, or "Keep my plan". */
export function planActions(b: ApiBilling): { addCard: 'Add a card' | 'Update your card' | null; cancel: boolean; resume: boolean } {
  const failed = b.status === 'past_due' || b.status === 'unpaid';
  const ended = b.status === 'canceled' || b.status === 'incomplete_expired' || b.status === 'paused' || b.status === 'incomplete';
  const addCard = failed ? 'Update your card' : !b.hasCard || ended || b.status === null ? 'Add a card' : null;
  const running = b.status === 'trialing' || b.status === 'active' || failed;
  return { addCard, cancel: running && !b.cancelAtPeriodEnd, resume: b.cancelAtPeriodEnd && running };
}

/** An invoice's status as a word and a colour (Stripe's: paid, open, void, uncollectible, draft). */
export function invoiceStatus(status: ApiBillingInvoice['status']): { text: string; tone: Tone } {
  switch (status) {
    case 'paid':
      return { text: 'Paid', tone: 'green' };
    case 'open':
      return { text: 'Due', tone: 'amber' };
    case 'uncollectible':
      return { text: 'Not paid', tone: 'red' };
    case 'void':
      return { text: 'Void', tone: 'gray' };
    default:
      return { text: status ? status[0]!.toUpperCase() + status.slice(1) : 'Unknown', tone: 'gray' };
  }
}

/** Account Settings after Stripe Checkout ("Add a card"): the return's only words. */
const CARD_BEING_CONFIRMED = 'Thank you: your card is being confirmed with Stripe. Your plan shows here as soon as Stripe tells the box.';

/**
 * The line shown on the return from Stripe Checkout (`?billing=added`) until the server's state
 * shows the card. The return URL only chooses these words: nothing in it changes the plan, which
 * moves only on Stripe's signed webhook.
 */
export function billingReturnLine(search: string, b: Pick<ApiBilling, 'hasCard'>): string | null {
  return new URLSearchParams(search).get('billing') === 'added' && !b.hasCard ? CARD_BEING_CONFIRMED : null;
}
