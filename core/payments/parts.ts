// The parts money is made of (issue 59), typed once so each is built and tested on its own: the
// webhook intake (core/payments/webhooks/) verifies Stripe's signature on the raw body, records
// each event's id once (stripe_events) and hands the event to its scope's handler; deposits
// (core/payments/deposits/) and the operator's billing (core/payments/billing/) are those handlers.
import type Stripe from 'stripe';

export interface StripeEventHandlers {
  /**
   * An event from an owner's own account (the endpoint the box made there, by owner id). Must be
   * harmless when repeated or out of order: it reads the object's current state (a Checkout
   * Session paid or expired) rather than trusting the order events arrive in.
   */
  deposits(userId: number, event: Stripe.Event): Promise<void>;
  /** An event from the operator's account (BILLING=stripe); returns the owner it concerned, null when none. */
  billing(event: Stripe.Event): Promise<number | null>;
}
