import { eq } from 'drizzle-orm';
import type Stripe from 'stripe';
import type { StripeEventScope } from '../../../contract/enums.js';
import type { Db } from '../../db/client.js';
import { tablesOf } from '../../db/schema.js';

// Stripe delivers at least once, retries for days after anything but a 2xx, and keeps no order
// (https://docs.stripe.com/webhooks#handle-duplicate-events). An event's id is recorded in
// stripe_events once its handler has done its work: a repeat finds the id and changes nothing; a
// handler that throws leaves no record, so Stripe's retry applies it. The handlers
// (core/payments/parts.ts) write through their own transactions, so the record follows them
// rather than sharing one: two deliveries of one event at the same moment may both run the
// handler, which the handlers' contract makes harmless (they read the object's current state).

export type Applied = 'applied' | 'repeat';

/** Runs `handle` unless the event was applied before; records it after `handle` succeeds. */
export async function applyOnce(db: Db, now: () => Date, scope: StripeEventScope, event: Stripe.Event, handle: () => Promise<number | null>): Promise<Applied> {
  const { stripeEvents } = tablesOf(db);
  const seen = await db.select({ id: stripeEvents.id }).from(stripeEvents).where(eq(stripeEvents.id, event.id)).limit(1);
  if (seen.length > 0) return 'repeat';
  const userId = await handle();
  await db.insert(stripeEvents).values({ id: event.id, scope, userId, type: event.type, receivedAt: now() }).onConflictDoNothing();
  return 'applied';
}
