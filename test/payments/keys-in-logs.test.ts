// Issue 59, "the Stripe key never in a response or a log": every road a key travels, through the
// real app at debug level: an owner's restricted key saved, tested (working, refused, Stripe
// unreachable), a pay link made and refused, a disconnect refused; the operator's secret key through
// "Add a card" (working and unreachable). No log line holds either key or the endpoint's
// signing secret, and no answer holds a key, while the log did record these requests.
// (The webhook intake's own signing-secret check is in stripe-webhooks.test.ts.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAYMENT_ROUTES } from '../../contract/payments.js';
import { createLogger } from '../../core/logging/logger.js';
import { callFrom } from '../booking/fixtures.js';
import { giveNumber } from '../caller-texts/helpers.js';
import { startStripeDouble, type StripeAccountHandle, type StripeDouble } from '../doubles/stripe/server.js';
import { activeCustomer } from '../helpers/accounts.js';
import type { ApiClient } from '../helpers/client.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { bookingServices } from '../helpers/tables.js';
import { RIGHTS } from './deposits/setup.js';

const OWNER_KEY = 'rk_test_ownerkeyneverlogged00000000001';
const UNKNOWN_KEY = 'rk_test_unknownkeyneverlogged0000000002';
const OPERATOR_KEY = 'sk_test_operatorkeyneverlogged000000003';
const WEBHOOK_SECRET = 'whsec_operatorsecretneverlogged';
/** Long enough to be the key and nothing else: a log may say the last four (keyEnding), never more. */
const secretPart = (key: string) => key.slice(8, -4);

let double: StripeDouble;
let ownerAccount: StripeAccountHandle;
let server: TestServer;
let client: ApiClient;
let userId: number;
const lines: string[] = [];
const answers: string[] = [];

async function call(method: 'get' | 'put' | 'post' | 'delete', url: string, body?: unknown) {
  const res = await client.request(method.toUpperCase(), url, body);
  answers.push(res.text);
  return res;
}

beforeAll(async () => {
  double = await startStripeDouble();
  ownerAccount = double.account({ key: OWNER_KEY, name: 'Hartley Plumbing Ltd', permissions: RIGHTS });
  const operator = double.account({ key: OPERATOR_KEY, name: 'CallKeeper Operator Ltd' });
  const price = operator.price({ unitAmount: 3900, currency: 'gbp', interval: 'month', nickname: 'Professional Plan' });
  const log = createLogger({ level: 'debug' }, { write: (line: string) => void lines.push(line) });
  server = await startTestServer({
    log,
    logger: log,
    env: { BILLING: 'stripe', STRIPE_SECRET_KEY: OPERATOR_KEY, STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_PRICE_ID: price.id, STRIPE_API_BASE: double.url },
  });
  const owner = await activeCustomer(server, { businessName: 'Hartley Plumbing' });
  client = owner.client;
  userId = owner.user.id;
  await giveNumber(server, userId, '+447700900060');
});
afterAll(async () => {
  await server?.close();
  await double?.close();
});

describe('Stripe keys never in an answer or a log', () => {
  it('walks every road a key travels, at debug level', async () => {
    const db = server.database.db;
    // The owner's key: a wrong one first (Stripe refuses it), then theirs, tested, with Stripe down and up.
    expect((await call('put', PAYMENT_ROUTES.stripe, { secretKey: UNKNOWN_KEY, depositPolicy: 'Refunded a day ahead.' })).status).toBe(200);
    expect((await call('post', PAYMENT_ROUTES.stripeTest)).body).toMatchObject({ ok: false, message: expect.stringMatching(/^Stripe did not accept this key/) });
    expect((await call('put', PAYMENT_ROUTES.stripe, { secretKey: OWNER_KEY })).status).toBe(200);
    await double.down(true, '503');
    expect((await call('post', PAYMENT_ROUTES.stripeTest)).body).toMatchObject({ ok: false, message: expect.stringMatching(/^Stripe could not be reached/) });
    await double.down(false);
    expect((await call('post', PAYMENT_ROUTES.stripeTest)).body).toMatchObject({ ok: true });
    expect((await call('get', PAYMENT_ROUTES.stripe)).body).toMatchObject({ connected: true, keyEnding: OWNER_KEY.slice(-4) });

    // A pay link made, and one refused (Stripe down: a request for the owner instead).
    const [service] = await db.insert(bookingServices).values({ userId, name: 'boiler service', durationMinutes: 60, depositKind: 'fixed', depositPence: 2000, depositHoldMinutes: 120 }).returning();
    const book = async (caller: string) => {
      const desk = server.services.booking.desk(userId);
      const offer = await desk.offer({ serviceId: service!.id, wish: '' });
      if (offer.kind !== 'offered') throw new Error(`no offer: ${JSON.stringify(offer)}`);
      return desk.book({ slotId: offer.slots[0]!.id, callId: await callFrom(db, userId, caller), callerName: 'Jo', callerNumber: caller });
    };
    expect((await book('+447700900311')).kind).toBe('booked');
    expect(ownerAccount.sessions()).toHaveLength(1);
    await double.down(true, 'refused');
    expect(await book('+447700900312')).toMatchObject({ kind: 'deposit-request', why: 'deposit-unavailable' });
    await double.down(false);

    // The operator's key: "Add a card" with Stripe down, then up.
    await double.down(true, '503');
    expect((await call('post', PAYMENT_ROUTES.billingCheckout)).status).toBe(503);
    await double.down(false);
    const checkout = await call('post', PAYMENT_ROUTES.billingCheckout);
    expect(checkout.status, checkout.text).toBe(200);
    expect((await call('get', PAYMENT_ROUTES.billing)).status).toBe(200);

    // Disconnect is refused while the pay link is out.
    expect((await call('delete', PAYMENT_ROUTES.stripe)).status).toBe(400);
    const signingSecret = ownerAccount.webhookEndpoints()[0]!.secret!;

    // The log saw all this (so an empty log cannot pass), and none of it holds a secret.
    expect(lines.some((l) => l.includes(PAYMENT_ROUTES.stripeTest))).toBe(true);
    expect(lines.some((l) => l.includes(PAYMENT_ROUTES.billingCheckout))).toBe(true);
    const secrets = { owner: secretPart(OWNER_KEY), unknown: secretPart(UNKNOWN_KEY), operator: secretPart(OPERATOR_KEY), operatorWebhook: WEBHOOK_SECRET, ownerWebhook: signingSecret };
    const leaks = Object.entries(secrets).flatMap(([name, s]) => [
      ...lines.filter((l) => l.includes(s)).map((l) => `log (${name}): ${l.slice(0, 200)}`),
      ...answers.filter((a) => a.includes(s)).map((a) => `answer (${name}): ${a.slice(0, 200)}`),
    ]);
    expect(leaks).toEqual([]);
    expect(double.violations).toEqual([]);
  });
});
