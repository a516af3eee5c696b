import Stripe from 'stripe';
import { stripeClient } from '../stripe-client.js';
import { DEPOSIT_EVENTS } from './rules.js';

// The deposit calls to an owner's Stripe account, each with its own idempotency key from the
// box's ids, so a retry after a lost answer can never make a second session or a second refund.
// Nothing here reads the database: callers pass what the booking says.

export interface CheckoutInput {
  bookingId: number;
  userId: number;
  pence: number;
  /** Inside Stripe's window (rules.ts sessionExpiry), not necessarily the hold's end. */
  expiresAt: Date;
  /** "Boiler service, Tue 8 Dec, 10:00": what the caller sees on Stripe's page. */
  description: string;
  /** PUBLIC_URL: the return pages only say thank you; nothing is trusted from a browser's return. */
  publicUrl: string;
}

export function depositGateway(secretKey: string, apiBase?: string) {
  const stripe: Stripe = stripeClient(secretKey, apiBase);
  return {
    createCheckout: (i: CheckoutInput): Promise<Stripe.Checkout.Session> =>
      stripe.checkout.sessions.create({
        mode: 'payment',
        line_items: [{ quantity: 1, price_data: { currency: 'gbp', unit_amount: i.pence, product_data: { name: `Deposit: ${i.description}` } } }],
        expires_at: Math.floor(i.expiresAt.getTime() / 1000),
        client_reference_id: String(i.bookingId),
        metadata: { booking_id: String(i.bookingId), user_id: String(i.userId) },
        payment_intent_data: { metadata: { booking_id: String(i.bookingId), user_id: String(i.userId) } },
        success_url: new URL('/deposit/thanks', i.publicUrl).toString(),
        cancel_url: new URL('/deposit/not-paid', i.publicUrl).toString(),
      }, { idempotencyKey: `deposit-checkout:${i.bookingId}` }),
    retrieve: (sessionId: string): Promise<Stripe.Checkout.Session> => stripe.checkout.sessions.retrieve(sessionId),
    /** Stripe refuses to expire a session already complete: the caller reads it again. */
    expire: (sessionId: string, bookingId: number): Promise<Stripe.Checkout.Session> =>
      stripe.checkout.sessions.expire(sessionId, {}, { idempotencyKey: `deposit-expire:${bookingId}` }),
    refund: (paymentIntent: string, bookingId: number): Promise<Stripe.Refund> =>
      stripe.refunds.create({ payment_intent: paymentIntent, metadata: { booking_id: String(bookingId) } }, { idempotencyKey: `deposit-refund:${bookingId}` }),
    /** The account's name for "Connected to …"; null when the key may not read it (not a right the box needs). */
    accountName: async (): Promise<string | null> => {
      const a = await stripe.accounts.retrieveCurrent();
      return a.business_profile?.name ?? a.settings?.dashboard.display_name ?? null;
    },
    /**
     * A right proved without doing anything: an empty create, which Stripe refuses as forbidden
     * (403) without the right and as incomplete (400) with it. Resolves true when the right is there.
     */
    probe: async (what: 'checkout' | 'refunds', tag: string): Promise<true> => {
      const opts = { idempotencyKey: `deposit-probe:${what}:${tag}` };
      try {
        if (what === 'checkout') await stripe.checkout.sessions.create({}, opts);
        else await stripe.refunds.create({}, opts);
      } catch (err) {
        if (!(err instanceof Stripe.errors.StripeInvalidRequestError)) throw err;
      }
      return true;
    },
    /** The box's endpoint at `url` on this account, if it is there (Stripe shows its secret only at creation). */
    findWebhook: async (id: string): Promise<Stripe.WebhookEndpoint | undefined> => {
      for await (const e of stripe.webhookEndpoints.list({ limit: 100 })) if (e.id === id) return e;
      return undefined;
    },
    /** The box's endpoint on the owner's account; `keyTag` names the saved key, so a retry makes one endpoint and a new key its own. */
    createWebhook: (url: string, userId: number, keyTag: string): Promise<Stripe.WebhookEndpoint> =>
      stripe.webhookEndpoints.create({ url, enabled_events: [...DEPOSIT_EVENTS], description: 'CallKeeper deposits', metadata: { user_id: String(userId) } }, { idempotencyKey: `deposit-webhook:${userId}:${keyTag}` }),
    deleteWebhook: (id: string): Promise<Stripe.DeletedWebhookEndpoint> => stripe.webhookEndpoints.del(id),
  };
}
export type DepositGateway = ReturnType<typeof depositGateway>;
