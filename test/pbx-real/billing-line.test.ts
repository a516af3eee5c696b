// Issue 59, the operator's billing on a real Asterisk 20.17.0: the line pauses and answers again
// as the money says. BILLING=stripe against the Stripe double on the box's fake clock; housekeeping's
// passes (trial expiry, billing's sweep) run by hand at the clock's time as its timer would; the
// owner presses "Add a card" through the API and Stripe's signed events come in through the
// webhook endpoint. What each SIPp caller heard is compared with the line the core speaks.
import type Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAYMENT_ROUTES } from '../../contract/payments.js';
import { expireTrials, findUserById } from '../../core/accounts/users.js';
import { unavailableMessage } from '../../dialogue/spoken/call-lines.js';
import { businessGreeting } from '../../dialogue/spoken/greeting.js';
import { startStripeDouble, type StripeAccountHandle, type StripeDouble } from '../doubles/stripe/server.js';
import { activeCustomer } from '../helpers/accounts.js';
import { ApiClient } from '../helpers/client.js';
import { giveDid } from './business.js';
import { heardGreetingAndBeep, promptHeard, realPbxAvailability, startRealPbx, type RealPbx } from './harness.js';

const real = realPbxAvailability();
const DAY = 86_400_000;
const OPERATOR_KEY = 'sk_test_operator0000000001';
const WEBHOOK_SECRET = 'whsec_test_billing';

describe.skipIf(!real.ok)('the line follows the operator\'s billing, on a real Asterisk', { timeout: 240_000 }, () => {
  let h: RealPbx;
  let double: StripeDouble;
  let operator: StripeAccountHandle;
  beforeAll(async () => {
    // The double signs and expires on the box's clock (the server is made just below).
    double = await startStripeDouble({ now: () => h?.server.services.now() ?? new Date() });
    operator = double.account({ key: OPERATOR_KEY, name: 'CallKeeper Operator Ltd' });
    const price = operator.price({ unitAmount: 3900, currency: 'gbp', interval: 'month', nickname: 'Professional Plan' });
    h = await startRealPbx({ env: { BILLING: 'stripe', STRIPE_SECRET_KEY: OPERATOR_KEY, STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_PRICE_ID: price.id, STRIPE_API_BASE: double.url } });
  });
  afterAll(async () => {
    await h?.close();
    await double?.close();
  });

  const setClock = (ms: number) => void (h.server.clock.offsetMs = ms);
  const statusOf = async (userId: number) => (await findUserById(h.server.database.db, userId))!.accountStatus;
  /** Housekeeping's pass, at the clock's time. */
  const housekeeping = async () => {
    await expireTrials(h.server.database.db, h.server.services.now());
    await h.server.services.billing.sweep();
  };
  /** Stripe's events POSTed to the box's billing endpoint, signed as Stripe signs them. */
  const deliver = async (events: Stripe.Event[]) => {
    for (const e of events) expect((await double.send(h.server.url + PAYMENT_ROUTES.billingWebhook, e, WEBHOOK_SECRET)).status).toBe(200);
  };

  /** A business in its free trial, with its own number on the trunk; signed in again at the clock's time when asked. */
  async function trialBusiness(name: string) {
    const owner = await activeCustomer(h.server, { businessName: name });
    const did = await giveDid(h.server.database.db, owner.user.id);
    const row = (await findUserById(h.server.database.db, owner.user.id))!;
    expect(row.trialExpiresAt).not.toBeNull();
    const signedIn = async () => {
      const client = new ApiClient(h.server.url);
      expect((await client.post('/api/auth/login', { email: owner.email, password: owner.password })).status).toBe(200);
      return client;
    };
    return { userId: owner.user.id, did, voice: row.voicePreference, signedIn };
  }

  /** "Add a card": the box's Checkout Session, paid on Stripe's page, its events delivered to the box. */
  async function addCard(client: ApiClient): Promise<string> {
    const res = await client.post(PAYMENT_ROUTES.billingCheckout);
    expect(res.status, res.text).toBe(200);
    const session = operator.sessions().find((s) => s.url === res.body.url)!;
    await deliver(double.completeCheckout(session.id));
    return operator.sessions().find((s) => s.id === session.id)!.subscription as string;
  }

  /** A call that hears the paused line's message to its end (Asterisk hangs up). */
  async function heardPaused(did: string, name: string, voice: 'female' | 'male') {
    const call = await h.call(did);
    expect((await call.done).exitCode).toBe(0);
    expect(await promptHeard(h, call.media.heard(), unavailableMessage('expired', name), voice)).toBeGreaterThan(0.8);
  }

  /** A call answered with the business's greeting and the beep; the caller then hangs up. */
  async function heardGreeting(did: string, name: string, voice: 'female' | 'male') {
    const call = await h.call(did);
    await heardGreetingAndBeep(call);
    expect(await promptHeard(h, call.media.heard(), businessGreeting(name), voice)).toBeGreaterThan(0.8);
    await call.hangUp();
    await call.done;
  }

  it('a trial ending without a card pauses the line (callers hear the paused message); a card added turns it back on', async () => {
    setClock(0);
    const b = await trialBusiness('Lapsed Joinery');
    setClock(8 * DAY);
    await housekeeping();
    expect(await statusOf(b.userId)).toBe('expired');
    await heardPaused(b.did, 'Lapsed Joinery', b.voice);

    await addCard(await b.signedIn());
    expect(await statusOf(b.userId)).toBe('active');
    await heardGreeting(b.did, 'Lapsed Joinery', b.voice);
    expect(double.violations).toEqual([]);
  });

  it('a failed renewal keeps the line answering through the grace days, then pauses it', async () => {
    setClock(0);
    const b = await trialBusiness('Overdue Electrics');
    setClock(8 * DAY);
    await housekeeping();
    const subscriptionId = await addCard(await b.signedIn());
    setClock(39 * DAY);
    await deliver(double.renew(subscriptionId, { pay: false }));
    // BILLING_GRACE_DAYS is 7 by default: six days on, the line still answers.
    setClock(45 * DAY);
    await housekeeping();
    expect(await statusOf(b.userId)).toBe('active');
    await heardGreeting(b.did, 'Overdue Electrics', b.voice);

    setClock(46.1 * DAY);
    await housekeeping();
    expect(await statusOf(b.userId)).toBe('expired');
    await heardPaused(b.did, 'Overdue Electrics', b.voice);
    expect(double.violations).toEqual([]);
  });
});
