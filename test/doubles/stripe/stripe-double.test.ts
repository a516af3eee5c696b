// The Stripe double driven by the real SDK through the box's own client (core/payments/stripe-client.ts):
// each call the box makes answers an object of the SDK's type, a POST without the box's own
// idempotency key is refused and recorded, a replay answers the first object, and a signed event
// verifies with the SDK's constructEvent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Stripe from 'stripe';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { stripeClient } from '../../../core/payments/stripe-client.js';
import { waitUntil } from '../../helpers/wait.js';
import { startStripeDouble, type StripeAccountHandle, type StripeDouble, type StripePermission } from './server.js';

let double: StripeDouble;
let operator: StripeAccountHandle;
let owner: StripeAccountHandle;
let price: Stripe.Price;
const operatorKey = 'sk_test_operator_0001';
const ownerKey = 'rk_test_owner_0001';
/** The rights an owner's restricted key for deposits needs (docs/payments.md). */
const depositRights: StripePermission[] = ['rak_checkout_session_write', 'rak_refund_write', 'rak_webhook_write'];

beforeAll(async () => {
  double = await startStripeDouble();
  operator = double.account({ key: operatorKey, name: 'CallKeeper Ltd' });
  owner = double.account({ key: ownerKey, name: "Sam's Garage", permissions: depositRights });
  price = operator.price({ unitAmount: 3900, currency: 'gbp', interval: 'month', nickname: 'Professional' });
});
afterAll(async () => {
  await double.close();
});

const inHalfAnHour = () => Math.floor(Date.now() / 1000) + 31 * 60;

describe('the Stripe double', () => {
  it('answers a deposit Checkout Session, completes it with a payment_intent, and refunds it', async () => {
    const stripe = stripeClient(ownerKey, double.url);
    const session = await stripe.checkout.sessions.create(
      {
        mode: 'payment',
        line_items: [{ quantity: 1, price_data: { currency: 'gbp', unit_amount: 1500, product_data: { name: 'Deposit: MOT' } } }],
        metadata: { booking_id: '42' },
        expires_at: inHalfAnHour(),
        success_url: 'http://127.0.0.1/paid',
      },
      { idempotencyKey: 'deposit-checkout:42' },
    );
    expect(session).toMatchObject({ object: 'checkout.session', mode: 'payment', status: 'open', amount_total: 1500, currency: 'gbp', metadata: { booking_id: '42' } });
    expect(session.url).toMatch(/^https:\/\/checkout\.stripe\.com\//);

    const [completed] = double.completeCheckout(session.id);
    expect(completed?.type).toBe('checkout.session.completed');
    const paid = await stripe.checkout.sessions.retrieve(session.id);
    expect(paid.payment_status).toBe('paid');
    expect(paid.payment_intent).toMatch(/^pi_/);

    const refund = await stripe.refunds.create({ payment_intent: String(paid.payment_intent) }, { idempotencyKey: 'deposit-refund:42' });
    expect(refund).toMatchObject({ object: 'refund', amount: 1500, status: 'succeeded' });
    const again = await stripe.refunds.create({ payment_intent: String(paid.payment_intent) }, { idempotencyKey: 'deposit-refund:42:again' }).catch((e: unknown) => e);
    expect(again).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect((again as Stripe.errors.StripeError).code).toBe('charge_already_refunded');
  });

  it('holds a stalled call until released, then answers it', async () => {
    const stripe = stripeClient(ownerKey, double.url);
    const stalled = double.stall('POST', '/v1/checkout/sessions');
    let answered = false;
    const made = stripe.checkout.sessions.create(
      { mode: 'payment', line_items: [{ quantity: 1, price_data: { currency: 'gbp', unit_amount: 700, product_data: { name: 'Deposit' } } }], expires_at: inHalfAnHour() },
      { idempotencyKey: 'deposit-checkout:stalled' },
    ).then((s) => ((answered = true), s));
    await waitUntil(async () => {
      if (!double.requests.some((r) => r.idempotencyKey === 'deposit-checkout:stalled')) throw new Error('not arrived yet');
    }, 10_000, 20);
    expect(answered).toBe(false);
    expect(owner.sessions().some((s) => s.amount_total === 700)).toBe(false);
    stalled.release();
    expect((await made).amount_total).toBe(700);
  });

  it('keeps a Checkout Session to Stripe’s 30 minutes to 24 hours, and expires one', async () => {
    const stripe = stripeClient(ownerKey, double.url);
    const tooSoon = await stripe.checkout.sessions
      .create(
        { mode: 'payment', line_items: [{ quantity: 1, price_data: { currency: 'gbp', unit_amount: 500, product_data: { name: 'Deposit' } } }], expires_at: Math.floor(Date.now() / 1000) + 600 },
        { idempotencyKey: 'deposit-checkout:43' },
      )
      .catch((e: unknown) => e);
    expect((tooSoon as Stripe.errors.StripeError).param).toBe('expires_at');

    const session = await stripe.checkout.sessions.create(
      { mode: 'payment', line_items: [{ quantity: 1, price_data: { currency: 'gbp', unit_amount: 500, product_data: { name: 'Deposit' } } }], expires_at: inHalfAnHour() },
      { idempotencyKey: 'deposit-checkout:44' },
    );
    const expired = await stripe.checkout.sessions.expire(session.id, {}, { idempotencyKey: 'deposit-expire:44' });
    expect(expired.status).toBe('expired');
    expect(double.events.at(-1)).toMatchObject({ type: 'checkout.session.expired', data: { object: { id: session.id, status: 'expired' } } });
    const listed = await stripe.checkout.sessions.list({ limit: 100 });
    expect(listed.data.map((s) => s.id)).toContain(session.id);
  });

  it('runs a subscription: Checkout in subscription mode with a trial, renewals paid and failing, cancel at the period’s end', async () => {
    const stripe = stripeClient(operatorKey, double.url);
    expect((await stripe.prices.retrieve(price.id)).unit_amount).toBe(3900);
    const customer = await stripe.customers.create({ email: 'owner@example.test', name: 'Sam', metadata: { user_id: '7' } }, { idempotencyKey: 'billing-customer:7' });
    expect(customer).toMatchObject({ object: 'customer', email: 'owner@example.test', metadata: { user_id: '7' } });
    const updated = await stripe.customers.update(customer.id, { name: 'Sam Smith' }, { idempotencyKey: 'billing-customer-name:7:1' });
    expect(updated.name).toBe('Sam Smith');
    expect((await stripe.customers.retrieve(customer.id)).id).toBe(customer.id);

    const trialEnd = Math.floor(Date.now() / 1000) + 5 * 86_400;
    const session = await stripe.checkout.sessions.create(
      { mode: 'subscription', customer: customer.id, line_items: [{ price: price.id, quantity: 1 }], subscription_data: { trial_end: trialEnd }, success_url: 'http://127.0.0.1/ok' },
      { idempotencyKey: 'billing-checkout:7:1' },
    );
    const made = double.completeCheckout(session.id);
    expect(made.map((e) => e.type)).toEqual(['customer.subscription.created', 'invoice.paid', 'checkout.session.completed']);
    const done = await stripe.checkout.sessions.retrieve(session.id, { expand: ['subscription'] });
    const sub = done.subscription as Stripe.Subscription;
    expect(sub).toMatchObject({ object: 'subscription', status: 'trialing', trial_end: trialEnd, customer: customer.id });
    expect(sub.items.data[0]?.current_period_end).toBe(trialEnd);

    const failed = double.renew(sub.id, { pay: false });
    expect(failed.map((e) => e.type)).toEqual(['invoice.payment_failed', 'customer.subscription.updated']);
    expect((await stripe.subscriptions.retrieve(sub.id)).status).toBe('past_due');
    double.renew(sub.id, { pay: true });
    expect((await stripe.subscriptions.retrieve(sub.id)).status).toBe('active');
    const invoices = await stripe.invoices.list({ customer: customer.id });
    expect(invoices.data.map((i) => i.status)).toEqual(['paid', 'open', 'paid']);
    expect(invoices.data[0]?.hosted_invoice_url).toMatch(/^https:\/\//);
    expect((await stripe.invoices.list({ subscription: sub.id })).data).toHaveLength(3);

    const cancelling = await stripe.subscriptions.update(sub.id, { cancel_at_period_end: true }, { idempotencyKey: `billing-cancel:${sub.id}:1` });
    expect(cancelling.cancel_at_period_end).toBe(true);
    expect((await stripe.subscriptions.list({ customer: customer.id })).data).toHaveLength(1);
    expect(double.renew(sub.id, { pay: true }).map((e) => e.type)).toEqual(['customer.subscription.deleted']);
    expect((await stripe.subscriptions.list({ customer: customer.id })).data).toHaveLength(0);
    expect((await stripe.subscriptions.list({ customer: customer.id, status: 'all' })).data[0]?.status).toBe('canceled');
  });

  it('refuses a subscription trial_end under 48 hours away, as Stripe does', async () => {
    const stripe = stripeClient(operatorKey, double.url);
    const e = await stripe.checkout.sessions
      .create(
        { mode: 'subscription', line_items: [{ price: price.id, quantity: 1 }], subscription_data: { trial_end: Math.floor(Date.now() / 1000) + 86_400 } },
        { idempotencyKey: 'billing-checkout:8:1' },
      )
      .catch((err: unknown) => err);
    expect((e as Stripe.errors.StripeError).param).toBe('subscription_data[trial_end]');
  });

  it('cancels a subscription at once, and makes, lists and deletes webhook endpoints', async () => {
    const stripe = stripeClient(operatorKey, double.url);
    const session = await stripe.checkout.sessions.create({ mode: 'subscription', line_items: [{ price: price.id, quantity: 1 }] }, { idempotencyKey: 'billing-checkout:9:1' });
    double.completeCheckout(session.id);
    const paidSession = await stripe.checkout.sessions.retrieve(session.id);
    const sub = operator.subscriptions().find((s) => s.id === paidSession.subscription);
    expect(sub?.status).toBe('active');
    const cancelled = await stripe.subscriptions.cancel(String(sub?.id));
    expect(cancelled.status).toBe('canceled');

    const ownerStripe = stripeClient(ownerKey, double.url);
    const endpoint = await ownerStripe.webhookEndpoints.create(
      { url: 'http://127.0.0.1:1/api/stripe/webhooks/deposits/7', enabled_events: ['checkout.session.completed', 'checkout.session.expired'] },
      { idempotencyKey: 'deposit-webhook:7' },
    );
    expect(endpoint.secret).toMatch(/^whsec_/);
    const listed = await ownerStripe.webhookEndpoints.list();
    expect(listed.data.map((e) => e.id)).toEqual([endpoint.id]);
    expect(listed.data[0]?.secret).toBeUndefined();
    expect((await ownerStripe.webhookEndpoints.del(endpoint.id)).deleted).toBe(true);
    expect(owner.webhookEndpoints()).toHaveLength(0);
    expect((await stripe.accounts.retrieveCurrent()).business_profile?.name).toBe('CallKeeper Ltd');
    expect((await stripe.accounts.retrieve(null)).id).toBe(operator.id);
  });

  it('answers an unknown key with 401 and a right the restricted key lacks with 403', async () => {
    const unknown = await stripeClient('sk_test_nobody_999', double.url).customers.retrieve('cus_x').catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(Stripe.errors.StripeAuthenticationError);
    expect((unknown as Error).message).not.toContain('nobody_999x');
    const lacking = await stripeClient(ownerKey, double.url).customers.create({}, { idempotencyKey: 'x-customer:1' }).catch((e: unknown) => e);
    expect(lacking).toBeInstanceOf(Stripe.errors.StripePermissionError);
    expect((lacking as Error).message).toContain("'rak_customer_write'");
  });

  it('refuses a POST without the box’s own idempotency key, and records it', async () => {
    const before = double.violations.length;
    const stripe = stripeClient(operatorKey, double.url);
    const e = await stripe.customers.create({ email: 'a@example.test' }).catch((err: unknown) => err);
    expect(e).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(double.violations.slice(before)).toEqual([expect.objectContaining({ method: 'POST', path: '/v1/customers' })]);
    expect(double.violations[before]?.idempotencyKey).toMatch(/^stripe-node-retry-/);
    // Only one attempt: the refusal says "do not retry", as Stripe's 400s do.
    expect(double.requests.filter((r) => r.path === '/v1/customers' && r.idempotencyKey === double.violations[before]?.idempotencyKey)).toHaveLength(1);
    double.violations.splice(before);
  });

  it('replays the first answer for a repeated key and refuses the key for another request', async () => {
    const stripe = stripeClient(operatorKey, double.url);
    const first = await stripe.customers.create({ email: 'once@example.test' }, { idempotencyKey: 'billing-customer:11' });
    const second = await stripe.customers.create({ email: 'once@example.test' }, { idempotencyKey: 'billing-customer:11' });
    expect(second).toEqual(first);
    expect(operator.customers().filter((c) => c.email === 'once@example.test')).toHaveLength(1);
    expect(double.requests.filter((r) => r.idempotencyKey === 'billing-customer:11').map((r) => r.replayed)).toEqual([false, true]);
    const other = await stripe.customers.create({ email: 'other@example.test' }, { idempotencyKey: 'billing-customer:11' }).catch((e: unknown) => e);
    expect(other).toBeInstanceOf(Stripe.errors.StripeIdempotencyError);
  });

  it('is down on request: connection refused, then 503, then up again', async () => {
    const stripe = new Stripe(operatorKey, { host: '127.0.0.1', port: new URL(double.url).port, protocol: 'http', maxNetworkRetries: 0 });
    await double.down(true);
    expect(await stripe.prices.retrieve(price.id).catch((e: unknown) => e)).toBeInstanceOf(Stripe.errors.StripeConnectionError);
    await double.down(false);
    await double.down(true, '503');
    expect(await stripe.prices.retrieve(price.id).catch((e: unknown) => e)).toBeInstanceOf(Stripe.errors.StripeAPIError);
    await double.down(false);
    expect((await stripe.prices.retrieve(price.id)).id).toBe(price.id);
  });

  it('signs an event the SDK’s constructEvent verifies, and one with another secret it refuses', async () => {
    const bodies: { body: string; signature: string }[] = [];
    const box = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        bodies.push({ body: Buffer.concat(chunks).toString('utf8'), signature: String(req.headers['stripe-signature']) });
        res.end('{}');
      });
    });
    await new Promise<void>((resolve) => box.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(box.address() as AddressInfo).port}/hook`;
      const session = operator.sessions()[0];
      if (!session) throw new Error('no session');
      const event = double.event('checkout.session.completed', session);
      expect(event.id).toMatch(/^evt_/);
      const secret = 'whsec_test_secret';
      expect((await double.send(url, event, secret)).status).toBe(200);
      const got = bodies[0];
      if (!got) throw new Error('nothing delivered');
      const verified = Stripe.webhooks.constructEvent(got.body, got.signature, secret);
      expect(verified).toMatchObject({ id: event.id, type: 'checkout.session.completed', data: { object: { id: session.id } } });
      expect(() => Stripe.webhooks.constructEvent(got.body, got.signature, 'whsec_other')).toThrow(Stripe.errors.StripeSignatureVerificationError);
    } finally {
      await new Promise<void>((resolve) => box.close(() => resolve()));
    }
  });

  it('saves nothing for a request refused by validation, so the same key may carry mended params', async () => {
    const stripe = stripeClient(ownerKey, double.url);
    const line = [{ quantity: 1, price_data: { currency: 'gbp', unit_amount: 700, product_data: { name: 'Deposit' } } }];
    const refused = await stripe.checkout.sessions.create({ mode: 'payment', line_items: line, expires_at: Math.floor(Date.now() / 1000) + 60 }, { idempotencyKey: 'deposit-checkout:45' }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    const made = await stripe.checkout.sessions.create({ mode: 'payment', line_items: line, expires_at: inHalfAnHour() }, { idempotencyKey: 'deposit-checkout:45' });
    expect(made.status).toBe('open');
  });

  it('expires an open session by itself once its clock passes expires_at, with the event', async () => {
    let now = new Date('2026-12-02T10:00:00Z');
    const clocked = await startStripeDouble({ now: () => now });
    try {
      clocked.account({ key: ownerKey, name: 'Clocked' });
      const stripe = stripeClient(ownerKey, clocked.url);
      const dueAt = Math.floor(now.getTime() / 1000) + 30 * 60;
      const session = await stripe.checkout.sessions.create(
        { mode: 'payment', line_items: [{ quantity: 1, price_data: { currency: 'gbp', unit_amount: 900, product_data: { name: 'Deposit' } } }], expires_at: dueAt },
        { idempotencyKey: 'deposit-checkout:46' },
      );
      now = new Date((dueAt + 1) * 1000);
      expect((await stripe.checkout.sessions.retrieve(session.id)).status).toBe('expired');
      expect(clocked.events.map((e) => e.type)).toEqual(['checkout.session.expired']);
      expect(() => clocked.completeCheckout(session.id)).toThrow(/expired/);
    } finally {
      await clocked.close();
    }
  });

  it('saw no POST without the box’s own idempotency key in this file', () => {
    expect(double.violations).toEqual([]);
  });
});
