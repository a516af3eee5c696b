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

/**
 * Deposits as booking sees them (core/booking claims the slot, core/payments/deposits/ takes the
 * money). A booking of a service with a deposit is claimed live with deposit_state 'awaiting',
 * deposit_pence and deposit_due_at set by booking in the claim's own transaction, so it blocks
 * the slot from its first moment; then booking calls `startHold`.
 */
export interface DepositDesk {
  /** Whether the owner takes deposits now: a Stripe connection saved and tested. */
  connected(userId: number): Promise<boolean>;
  /**
   * The Checkout Session for an 'awaiting' booking (expiring at its deposit_due_at kept inside
   * Stripe's 30 minutes to 24 hours, its metadata naming the booking) and the pay-link text to
   * the caller. Throws DepositUnavailable when Stripe cannot be reached or refuses: booking then
   * releases the slot and leaves the owner a booking request, as when a calendar cannot be read. `signal` is the asker's (the agent's
   * bounded walk). One rule decides a hold whose asker gave up: the signal is read once, just
   * before the pay-link text is handed to the road. Aborted then: nothing is texted and `stands`
   * is false, so booking releases the hold. Not aborted: the text goes and `stands` is true; the
   * hold then stands even if the bound passes while the text is being sent (releasing it would
   * leave the caller holding a dead link).
   */
  startHold(bookingId: number, signal?: AbortSignal): Promise<{ url: string; dueAt: Date; stands: boolean }>;
  /** A booking with a deposit was cancelled: refund (the owner cancelled, or the caller under a refunding policy) or keep. */
  cancelled(bookingId: number, by: 'owner' | 'caller'): Promise<void>;
}

/** Stripe could not be reached, or refused the request: in words for the owner's note. */
export class DepositUnavailable extends Error {
  constructor(readonly reason: string) {
    super(`The deposit link could not be made: ${reason}`);
    this.name = 'DepositUnavailable';
  }
}
