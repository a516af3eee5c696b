import Stripe from 'stripe';
import { FULL_KEY_WARNING } from '../../../contract/payments.js';

// The deposit's pure rules: what a cancelled booking's paid deposit becomes, and what a Stripe
// failure means in the owner's words.

export type Settlement = 'refund' | 'keep';

/**
 * A paid deposit of a cancelled booking: the owner cancelling, a release (a payment that came too
 * late) and a move always refund; a caller cancelling refunds or is kept per the owner's policy.
 */
export function settlementOf(cancelledBy: string | null, refundOnCallerCancel: boolean): Settlement {
  return cancelledBy === 'caller' && !refundOnCallerCancel ? 'keep' : 'refund';
}

/**
 * Stripe takes a Checkout Session's expires_at only from 30 minutes to 24 hours after the session
 * is made (https://docs.stripe.com/api/checkout/sessions/create#create_checkout_session-expires_at),
 * while a hold may be as short as 30 minutes from the claim (made a moment earlier) or as long as
 * 24 hours. The margins cover the seconds between our clock and Stripe's, and the request's trip.
 */
const SESSION_MIN_MS = 32 * 60_000;
const SESSION_MAX_MS = 24 * 3_600_000 - 2 * 60_000;

/**
 * When the pay link's session expires: the hold's end, kept inside Stripe's window. A session
 * outliving a short hold is expired at Stripe by the sweep when the hold ends; one of a 24-hour
 * hold ends a couple of minutes early, and its expired event releases the hold then.
 */
export function sessionExpiry(holdEnd: Date, now: Date): Date {
  const t = Math.min(Math.max(holdEnd.getTime(), now.getTime() + SESSION_MIN_MS), now.getTime() + SESSION_MAX_MS);
  return new Date(t);
}

/**
 * A booking moved to a new one (moved_to_id set): its deposit went along with it, so the old row's
 * deposit columns are history, never settled or counted. A row cancelled as 'moved' that went
 * nowhere (booking withdrew a claim its calendar then refused) still holds its link, and is settled.
 */
export function depositMovedOn(b: { cancelledBy: string | null; movedToId: number | null }): boolean {
  return b.cancelledBy === 'moved' && b.movedToId !== null;
}

/** The restricted key's rights the box needs, each with the call that proves it (docs/payments.md). */
const DEPOSIT_KEY_RIGHTS = {
  checkout: 'Checkout Sessions: Write',
  webhooks: 'Webhook Endpoints: Write',
  refunds: 'Refunds: Write',
} as const;
export type DepositRight = keyof typeof DEPOSIT_KEY_RIGHTS;

/** The webhook events the box asks Stripe to send to the owner's endpoint. */
export const DEPOSIT_EVENTS = ['checkout.session.completed', 'checkout.session.async_payment_succeeded', 'checkout.session.expired'] as const satisfies readonly Stripe.WebhookEndpointCreateParams.EnabledEvent[];

export type StripeTrouble = { kind: 'wrong-key' } | { kind: 'missing-right'; right: string } | { kind: 'unreachable' } | { kind: 'refused'; detail: string };

/** What a Stripe SDK error means for the owner; `right` is the right the failed call needed. */
export function troubleOf(err: unknown, right?: DepositRight): StripeTrouble {
  if (err instanceof Stripe.errors.StripeAuthenticationError) return { kind: 'wrong-key' };
  if (err instanceof Stripe.errors.StripePermissionError) return { kind: 'missing-right', right: right ? DEPOSIT_KEY_RIGHTS[right] : 'one the box needs' };
  if (err instanceof Stripe.errors.StripeConnectionError || err instanceof Stripe.errors.StripeAPIError || err instanceof Stripe.errors.StripeRateLimitError) return { kind: 'unreachable' };
  if (err instanceof Stripe.errors.StripeError) return { kind: 'refused', detail: err.message };
  return { kind: 'unreachable' };
}

export function troubleWords(t: StripeTrouble): string {
  switch (t.kind) {
    case 'wrong-key':
      return 'Stripe did not accept this key. Copy the whole restricted key (it starts rk_live_ or rk_test_) from your Stripe dashboard and save it again.';
    case 'missing-right':
      return `Your Stripe key is missing the right "${t.right}". Edit the restricted key in your Stripe dashboard (Developers, API keys), give it that right, and test again.`;
    case 'unreachable':
      return 'Stripe could not be reached just now. Check the box\'s internet connection and test again in a minute.';
    case 'refused':
      return `Stripe refused the request: ${t.detail}`;
  }
}

/** Whether a failure may pass by itself (try again later) rather than needing the owner. */
export const passes = (t: StripeTrouble): boolean => t.kind === 'unreachable';

/** "Connected to Hartley Plumbing Ltd (test mode)". */
export function connectedWords(accountLabel: string | null, livemode: boolean): string {
  return `Connected to ${accountLabel ?? 'your Stripe account'}${livemode ? '' : ' (test mode)'}.`;
}

/** A full secret key (sk_…) rather than a restricted one (rk_…): accepted, with FULL_KEY_WARNING. */
export const isFullSecretKey = (key: string): boolean => key.startsWith('sk_');

/** "Test connection"'s words, with the warning when the key has more rights than the box needs. */
export function testedWords(accountLabel: string | null, livemode: boolean, fullKey: boolean): string {
  return fullKey ? `${connectedWords(accountLabel, livemode)} ${FULL_KEY_WARNING}` : connectedWords(accountLabel, livemode);
}

/** Live or test, from the key itself: a live key charges real cards. */
export const isLiveKey = (key: string): boolean => /^(rk|sk)_live_/.test(key);
