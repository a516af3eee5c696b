// Issue 59 "Webhooks done right": Stripe's events reach the box through the real server, signed
// by the Stripe double with the SDK's own helper. A forged or missing signature is refused with
// nothing recorded or applied; each event is applied once (stripe_events); a handler that throws
// leaves it unrecorded so Stripe's retry applies it; an owner without a connection is a 404;
// BILLING unset makes the billing endpoint a 404; no signing secret reaches a log line.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type Stripe from 'stripe';
import { PAYMENT_ROUTES } from '../../contract/payments.js';
import { tablesOf } from '../../core/db/schema.js';
import { createLogger } from '../../core/logging/logger.js';
import { seal } from '../../core/booking/calendars/secret-box.js';
import type { StripeEventHandlers } from '../../core/payments/parts.js';
import { stripeClient } from '../../core/payments/stripe-client.js';
import { activeCustomer } from '../helpers/accounts.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { startStripeDouble, type StripeAccountHandle, type StripeDouble } from '../doubles/stripe/server.js';

const BILLING_SECRET = 'whsec_billing_plant_6b1f0c9e2d';
const DEPOSIT_SECRET = 'whsec_deposit_plant_93ad7e51c4';
const OWNER_KEY = 'rk_test_owner_plant_5d1e';
const OPERATOR_KEY = 'sk_test_operator_plant_77aa';

/** Handlers that record what they were given and, on cue, throw (a database hiccup in a real one). */
function recordingHandlers() {
  const deposits: { userId: number; id: string; type: string }[] = [];
  const billing: { id: string; type: string }[] = [];
  const failures = { next: 0 };
  const handlers: StripeEventHandlers = {
    async deposits(userId, event) {
      if (failures.next > 0) {
        failures.next -= 1;
        throw new Error('handler failed on cue');
      }
      deposits.push({ userId, id: event.id, type: event.type });
    },
    async billing(event) {
      if (failures.next > 0) {
        failures.next -= 1;
        throw new Error('handler failed on cue');
      }
      billing.push({ id: event.id, type: event.type });
      return ownerId;
    },
  };
  return { handlers, deposits, billing, failures };
}

const lines: string[] = [];
const rec = recordingHandlers();
let double: StripeDouble;
let owner: StripeAccountHandle;
let server: TestServer;
let bare: TestServer;
let ownerId: number;
let strangerId: number;

beforeAll(async () => {
  double = await startStripeDouble();
  owner = double.account({ key: OWNER_KEY, name: "Sam's Garage" });
  double.account({ key: OPERATOR_KEY, name: 'CallKeeper Ltd' });
  const log = createLogger({ level: 'debug' }, { write: (line: string) => void lines.push(line) });
  server = await startTestServer({
    log,
    logger: log,
    env: { BILLING: 'stripe', STRIPE_SECRET_KEY: OPERATOR_KEY, STRIPE_WEBHOOK_SECRET: BILLING_SECRET, STRIPE_PRICE_ID: 'price_plant', STRIPE_API_BASE: double.url },
    payments: { handlers: rec.handlers },
  });
  // BILLING unset, and no handlers wired.
  bare = await startTestServer({ log, logger: log });
  ownerId = (await activeCustomer(server)).user.id;
  strangerId = (await activeCustomer(server, { businessEmail: 'stranger@example.co.uk', businessPhone: '07700 900456' })).user.id;
  const { stripeConnections } = tablesOf(server.database.db);
  const key = server.services.booking.keys.seal;
  await server.database.db.insert(stripeConnections).values({
    userId: ownerId,
    secretKeySealed: seal(key, OWNER_KEY),
    webhookEndpointId: 'we_plant',
    webhookSecretSealed: seal(key, DEPOSIT_SECRET),
    updatedAt: new Date(),
  });
});
afterAll(async () => {
  await server?.close();
  await bare?.close();
  await double?.close();
});

const depositsUrl = (s: TestServer, userId: number) => s.url + PAYMENT_ROUTES.depositsWebhook(userId);
const billingUrl = (s: TestServer) => s.url + PAYMENT_ROUTES.billingWebhook;

async function storedEvent(id: string) {
  const { stripeEvents } = tablesOf(server.database.db);
  return server.database.db.select().from(stripeEvents).where(eq(stripeEvents.id, id));
}

/** A paid deposit's event, from a Checkout Session made on the owner's account through the SDK. */
async function paidDepositEvent(bookingId: number): Promise<Stripe.Event> {
  const session = await stripeClient(OWNER_KEY, double.url).checkout.sessions.create(
    {
      mode: 'payment',
      line_items: [{ quantity: 1, price_data: { currency: 'gbp', unit_amount: 2000, product_data: { name: 'Deposit' } } }],
      metadata: { booking_id: String(bookingId) },
      expires_at: Math.floor(Date.now() / 1000) + 45 * 60,
    },
    { idempotencyKey: `deposit-checkout:${bookingId}` },
  );
  const [completed] = double.completeCheckout(session.id);
  if (!completed) throw new Error('the double made no event');
  return completed;
}

describe('the Stripe webhook intake', () => {
  it('refuses a forged, a missing and a stale signature with 400 and a message, recording and applying nothing', async () => {
    const event = await paidDepositEvent(1);
    const forged = await double.send(depositsUrl(server, ownerId), event, 'whsec_not_the_owners');
    expect(forged.status).toBe(400);
    expect(JSON.parse(forged.body)).toEqual({ message: 'The Stripe signature does not match this event, or it is too old.' });
    const unsigned = await double.send(depositsUrl(server, ownerId), event, DEPOSIT_SECRET, { signature: null });
    expect(unsigned.status).toBe(400);
    expect(JSON.parse(unsigned.body)).toEqual({ message: 'The Stripe-Signature header is missing.' });
    // Signed rightly, but ten minutes ago: a replay outside Stripe's five minutes.
    const stale = await double.send(depositsUrl(server, ownerId), event, DEPOSIT_SECRET, { created: Math.floor(Date.now() / 1000) - 600 });
    expect(stale.status).toBe(400);
    const billingForged = await double.send(billingUrl(server), double.event('invoice.paid', owner.invoices()[0] ?? ({ id: 'in_x' } as Stripe.Invoice)), DEPOSIT_SECRET);
    expect(billingForged.status).toBe(400);
    expect(await storedEvent(event.id)).toEqual([]);
    expect(rec.deposits.map((d) => d.id)).not.toContain(event.id);
    expect(rec.billing).toEqual([]);
  });

  it('applies an event once: the same delivery twice reaches the handler once and is stored once', async () => {
    const event = await paidDepositEvent(2);
    const first = await double.send(depositsUrl(server, ownerId), event, DEPOSIT_SECRET);
    expect({ status: first.status, body: JSON.parse(first.body) }).toEqual({ status: 200, body: { message: 'Applied.' } });
    const second = await double.send(depositsUrl(server, ownerId), event, DEPOSIT_SECRET);
    expect({ status: second.status, body: JSON.parse(second.body) }).toEqual({ status: 200, body: { message: 'Already applied.' } });
    expect(rec.deposits.filter((d) => d.id === event.id)).toEqual([{ userId: ownerId, id: event.id, type: 'checkout.session.completed' }]);
    expect(await storedEvent(event.id)).toEqual([expect.objectContaining({ id: event.id, scope: 'deposits', userId: ownerId, type: 'checkout.session.completed' })]);
  });

  it('answers 500 when the handler throws, records nothing, and applies Stripe’s retry', async () => {
    const event = await paidDepositEvent(3);
    rec.failures.next = 1;
    const failed = await double.send(depositsUrl(server, ownerId), event, DEPOSIT_SECRET);
    expect(failed.status).toBe(500);
    expect(await storedEvent(event.id)).toEqual([]);
    const retried = await double.send(depositsUrl(server, ownerId), event, DEPOSIT_SECRET);
    expect(retried.status).toBe(200);
    expect(rec.deposits.filter((d) => d.id === event.id)).toHaveLength(1);
    expect(await storedEvent(event.id)).toHaveLength(1);
  });

  it('answers 404 for an owner without a Stripe connection, before any signature is checked', async () => {
    const event = await paidDepositEvent(4);
    for (const userId of [strangerId, 999_999]) {
      const res = await double.send(depositsUrl(server, userId), event, DEPOSIT_SECRET);
      expect({ status: res.status, body: JSON.parse(res.body) }).toEqual({ status: 404, body: { message: 'This account has no Stripe connection for deposits.' } });
    }
    expect(await storedEvent(event.id)).toEqual([]);
  });

  it('applies the operator’s billing events with the operator’s secret, stored with the owner the handler named', async () => {
    const operator = stripeClient(OPERATOR_KEY, double.url);
    const customer = await operator.customers.create({ email: 'owner@example.co.uk' }, { idempotencyKey: `billing-customer:${ownerId}` });
    const event = double.event('customer.updated', customer);
    const res = await double.send(billingUrl(server), event, BILLING_SECRET);
    expect(res.status).toBe(200);
    expect(rec.billing).toEqual([{ id: event.id, type: 'customer.updated' }]);
    expect(await storedEvent(event.id)).toEqual([expect.objectContaining({ scope: 'billing', userId: ownerId })]);
  });

  it('answers 404 with a clear message on the billing endpoint when BILLING is unset; by default the real deposits handler takes an owner\'s events, ignoring one that names no booking of theirs', async () => {
    const event = double.event('customer.updated', { id: 'cus_plant' } as Stripe.Customer);
    const billing = await double.send(billingUrl(bare), event, BILLING_SECRET);
    expect({ status: billing.status, body: JSON.parse(billing.body) }).toEqual({ status: 404, body: { message: 'Billing through Stripe is not set up on this box (BILLING is unset).' } });

    const { stripeConnections } = tablesOf(bare.database.db);
    const bareOwner = (await activeCustomer(bare)).user.id;
    await bare.database.db.insert(stripeConnections).values({ userId: bareOwner, secretKeySealed: seal(bare.services.booking.keys.seal, OWNER_KEY), webhookSecretSealed: seal(bare.services.booking.keys.seal, DEPOSIT_SECRET), updatedAt: new Date() });
    const foreign = await double.send(depositsUrl(bare, bareOwner), await paidDepositEvent(5), DEPOSIT_SECRET);
    expect({ status: foreign.status, body: JSON.parse(foreign.body) }).toEqual({ status: 200, body: { message: 'Applied.' } });
    const { bookings } = tablesOf(bare.database.db);
    expect(await bare.database.db.select().from(bookings)).toEqual([]);
  });

  it('leaves the rest of /api parsing JSON as before', async () => {
    const res = await fetch(`${server.url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"not json' });
    expect(res.status).toBe(400);
  });

  it('wrote no signing secret or key to any log line, at debug level', () => {
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.some((l) => l.includes('stripe webhook refused'))).toBe(true);
    for (const secret of ['whsec_', BILLING_SECRET, DEPOSIT_SECRET, OWNER_KEY, OPERATOR_KEY]) {
      expect(lines.filter((l) => l.includes(secret))).toEqual([]);
    }
    expect(double.violations).toEqual([]);
  });
});
