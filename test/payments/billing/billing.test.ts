import type Stripe from 'stripe';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PAYMENT_ROUTES } from '../../../contract/payments.js';
import { expireTrials, findUserById } from '../../../core/accounts/users.js';
import type { MailMessage } from '../../../core/mail/templates.js';
import { BillingService } from '../../../core/payments/billing/billing-service.js';
import { subscriptionOf } from '../../../core/payments/billing/billing-store.js';
import { londonMonthStartUtc } from '../../../core/time/london-time.js';
import { startStripeDouble, type StripeAccountHandle, type StripeDouble } from '../../doubles/stripe/server.js';
import { activeCustomer, signInAdmin } from '../../helpers/accounts.js';
import { ApiClient } from '../../helpers/client.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';

// The operator's £39 a month through the Stripe double, on a fake clock the double shares: the
// SDK's real requests, Stripe's events handed to the billing handler (the webhook intake that
// verifies and dedupes them is tested on its own), the account's switch asserted as stored.
const DAY = 86_400_000;
let server: TestServer;
let double: StripeDouble;
let operator: StripeAccountHandle;
let billing: BillingService;
const mails: MailMessage[] = [];
const offset = { ms: 0 };

beforeAll(async () => {
  double = await startStripeDouble({ now: () => new Date(Date.now() + offset.ms) });
  operator = double.account({ key: 'sk_test_operator0000000001', name: 'CallKeeper Operator Ltd' });
  const price = operator.price({ unitAmount: 3900, currency: 'gbp', interval: 'month', nickname: 'Professional Plan' });
  server = await startTestServer({
    env: { BILLING: 'stripe', STRIPE_SECRET_KEY: 'sk_test_operator0000000001', STRIPE_WEBHOOK_SECRET: 'whsec_test_billing', STRIPE_PRICE_ID: price.id, STRIPE_API_BASE: double.url },
    mailer: { send: async (m) => void mails.push(m), close: () => undefined },
  });
  billing = new BillingService(server.services);
});
afterAll(async () => {
  await server?.close();
  await double?.close();
});
beforeEach(() => setClock(0));
// Every POST the box made carried its own idempotency key (the double refuses and records any other).
afterEach(() => expect(double.violations).toEqual([]));

function setClock(ms: number) {
  offset.ms = ms;
  server.clock.offsetMs = ms;
}
const db = () => server.database.db;
const account = async (id: number) => (await findUserById(db(), id))!;
/** The owner signed in afresh at the clock's time (a session from 40 days ago has long expired). */
async function signedIn(owner: { email: string; password: string }): Promise<ApiClient> {
  const client = new ApiClient(server.url);
  const login = await client.post('/api/auth/login', { email: owner.email, password: owner.password });
  expect(login.status, login.text).toBe(200);
  return client;
}
const planOf = async (owner: { email: string; password: string }) => (await (await signedIn(owner)).get(PAYMENT_ROUTES.billing)).body;
const billingMails = (to: string) => mails.filter((m) => m.to === to && !/approved/.test(m.subject));
const deliver = async (events: Stripe.Event[]) => {
  for (const e of events) await billing.handle(e);
};

/** "Add a card": the box's Checkout Session, paid on Stripe's page, its events through the handler. */
async function addCard(client: ApiClient) {
  const res = await client.post(PAYMENT_ROUTES.billingCheckout);
  expect(res.status, res.text).toBe(200);
  const session = operator.sessions().find((s) => s.url === res.body.url)!;
  expect(session.mode).toBe('subscription');
  const events = double.completeCheckout(session.id);
  await deliver(events);
  return { session: operator.sessions().find((s) => s.id === session.id)!, events, subscriptionId: operator.sessions().find((s) => s.id === session.id)!.subscription as string };
}

describe('the line follows the money', () => {
  it('a trial ending without a card pauses the line; a card added turns it back on at once and the trial box steps aside', async () => {
    const owner = await activeCustomer(server);
    setClock(8 * DAY);
    await expireTrials(db(), server.services.now());
    expect((await account(owner.user.id)).accountStatus).toBe('expired');
    expect((await planOf(owner))).toMatchObject({ enabled: true, status: null, hasCard: false, banner: 'Your free trial has ended: add a card to turn your line back on' });

    const { session } = await addCard(owner.client);
    // The trial is over, so the first month is charged at once: no trial_end was asked for.
    expect(double.requests.find((r) => r.path === '/v1/checkout/sessions' && r.method === 'POST' && r.params.client_reference_id === String(owner.user.id))?.params.subscription_data).not.toHaveProperty('trial_end');
    expect(session.success_url).toMatch(/\/dashboard\/account\?billing=added$/);
    const after = await account(owner.user.id);
    expect(after.accountStatus).toBe('active');
    expect(after.trialExpiresAt).toBeNull();
    const view = (await planOf(owner));
    expect(view).toMatchObject({ status: 'active', hasCard: true, banner: null, plan: { name: 'Professional Plan', amountPence: 3900, currency: 'gbp', interval: 'month' } });
    expect(view.invoices).toEqual([expect.objectContaining({ amountPence: 3900, status: 'paid', hostedUrl: expect.stringMatching(/^https?:/) })]);
  });

  it('a card added during the trial charges nothing until it ends, and the trial\'s end no longer pauses the line', async () => {
    const owner = await activeCustomer(server);
    const trialEnds = (await account(owner.user.id)).trialExpiresAt!;
    setClock(1 * DAY);
    await addCard(owner.client);
    const sub = operator.subscriptions().find((s) => s.metadata.user_id === String(owner.user.id))!;
    expect(sub.status).toBe('trialing');
    expect(sub.trial_end).toBe(Math.floor(trialEnds.getTime() / 1000));
    expect((await planOf(owner))).toMatchObject({ status: 'trialing', hasCard: true, trialEndsAt: new Date(sub.trial_end! * 1000).toISOString(), banner: null });
    expect((await owner.client.get('/api/auth/me')).body.user.trialExpiresAt).toBeNull();
    setClock(8 * DAY);
    await expireTrials(db(), server.services.now());
    await billing.sweep();
    expect((await account(owner.user.id)).accountStatus).toBe('active');
  });

  it('a failed renewal shows the grace banner and pauses the line after 7 days; paid turns it back on and the banner goes', async () => {
    const owner = await activeCustomer(server);
    setClock(8 * DAY);
    const { subscriptionId } = await addCard(owner.client);
    setClock(39 * DAY);
    await deliver(double.renew(subscriptionId, { pay: false }));
    const view = (await planOf(owner));
    const graceEnds = new Date(Date.now() + 39 * DAY + 7 * DAY);
    const day = graceEnds.toLocaleDateString('en-GB', { timeZone: 'Europe/London', day: 'numeric', month: 'short' });
    expect(view).toMatchObject({ status: 'past_due', banner: `Your last payment failed: update your card by ${day} or your line pauses` });
    expect(new Date(view.graceEndsAt).getTime()).toBeGreaterThan(graceEnds.getTime() - 60_000);
    // Adding a card now goes to the unpaid invoice's own page, not a second subscription.
    const pay = await (await signedIn(owner)).post(PAYMENT_ROUTES.billingCheckout);
    expect(pay.body.url).toBe(view.invoices.find((i: { status: string }) => i.status === 'open').hostedUrl);

    setClock(45.9 * DAY);
    await billing.sweep();
    expect((await account(owner.user.id)).accountStatus).toBe('active');
    setClock(46.1 * DAY);
    await billing.sweep();
    expect((await account(owner.user.id)).accountStatus).toBe('expired');

    await deliver(double.renew(subscriptionId, { pay: true }));
    expect((await account(owner.user.id)).accountStatus).toBe('active');
    expect((await planOf(owner))).toMatchObject({ status: 'active', banner: null, graceEndsAt: null });
    expect((await subscriptionOf(db(), owner.user.id))?.pastDueSince).toBeNull();
  });

  it('cancel runs to the period\'s end (reversible until then), then the ended subscription pauses the line', async () => {
    const owner = await activeCustomer(server);
    setClock(8 * DAY);
    const { subscriptionId } = await addCard(owner.client);
    const cancelled = await owner.client.post(PAYMENT_ROUTES.billingCancel);
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(cancelled.body).toMatchObject({ cancelAtPeriodEnd: true, nextPaymentAt: null, status: 'active' });
    // The plan section says when it ends: the period's end, as Stripe holds it and the store kept it.
    const periodEnd = (await subscriptionOf(db(), owner.user.id))!.currentPeriodEnd!;
    expect(cancelled.body.periodEndsAt).toBe(periodEnd.toISOString());
    expect(new Date(cancelled.body.periodEndsAt).getTime()).toBe(operator.subscriptions().find((s) => s.id === subscriptionId)!.items.data[0]!.current_period_end * 1000);
    expect(cancelled.body.banner).toMatch(/^Your plan is cancelled and ends on /);
    expect((await owner.client.post(PAYMENT_ROUTES.billingResume)).body).toMatchObject({ cancelAtPeriodEnd: false, banner: null });
    expect((await owner.client.post(PAYMENT_ROUTES.billingCancel)).body).toMatchObject({ cancelAtPeriodEnd: true });
    expect(operator.subscriptions().find((s) => s.id === subscriptionId)?.cancel_at_period_end).toBe(true);
    setClock(30 * DAY);
    await billing.sweep();
    expect((await account(owner.user.id)).accountStatus).toBe('active');

    setClock(39 * DAY);
    await deliver(double.renew(subscriptionId, { pay: true }));
    expect((await account(owner.user.id)).accountStatus).toBe('expired');
    expect((await planOf(owner))).toMatchObject({ status: 'canceled', hasCard: false, banner: 'Your plan has ended and your line is paused: add a card to turn it back on' });
  });

  it('the same events twice and in reverse order come to the one outcome', async () => {
    const owner = await activeCustomer(server);
    setClock(8 * DAY);
    const res = await owner.client.post(PAYMENT_ROUTES.billingCheckout);
    const session = operator.sessions().find((s) => s.url === res.body.url)!;
    const all = [...double.completeCheckout(session.id)];
    const subscriptionId = operator.sessions().find((s) => s.id === session.id)!.subscription as string;
    setClock(39 * DAY);
    all.push(...double.renew(subscriptionId, { pay: true }));
    setClock(69 * DAY);
    all.push(...double.renew(subscriptionId, { pay: false }));
    // The last word is a failed payment: applied last in order, first in reverse, it must win both ways.
    await deliver([...all].reverse());
    await deliver(all);
    await deliver([...all].reverse());
    expect((await account(owner.user.id)).accountStatus).toBe('active');
    const row = await subscriptionOf(db(), owner.user.id);
    expect(row).toMatchObject({ subscriptionId, status: 'past_due', cancelAtPeriodEnd: false });
    // The grace started when the box first heard of it, and repeats did not restart it.
    expect(row?.pastDueSince?.getTime()).toBeLessThanOrEqual(server.services.now().getTime());
    expect((await planOf(owner)).banner).toMatch(/^Your last payment failed: update your card by /);
    const invoices = (await planOf(owner)).invoices as Array<{ id: string; status: string }>;
    const theirs = operator.invoices().filter((i) => i.customer === row!.customerId);
    expect(invoices.map((i) => i.id).sort()).toEqual(theirs.map((i) => i.id).sort());
    expect(new Set(invoices.map((i) => i.id)).size).toBe(invoices.length);
  });

  it('Stripe down: "Add a card" is a 503 in words, an event cannot be applied, and nothing is paused', async () => {
    const owner = await activeCustomer(server);
    const paying = await activeCustomer(server);
    setClock(8 * DAY);
    const { subscriptionId } = await addCard(paying.client);
    const late = double.renew(subscriptionId, { pay: true });
    await double.down(true);
    try {
      setClock(1 * DAY);
      const res = await owner.client.post(PAYMENT_ROUTES.billingCheckout);
      expect(res.status).toBe(503);
      expect(res.body.message).toBe('Stripe cannot be reached just now, so this could not be done. Your line keeps answering; please try again in a few minutes.');
      expect((await account(owner.user.id)).accountStatus).toBe('active');
      // Past the paid period with no word from Stripe: the line keeps answering.
      setClock(80 * DAY);
      await expect(deliver(late)).rejects.toThrow();
      await billing.sweep();
      expect((await account(paying.user.id)).accountStatus).toBe('active');
    } finally {
      await double.down(false);
    }
    // Stripe back: the event Stripe sends again applies.
    await deliver(late);
    expect((await subscriptionOf(db(), paying.user.id))?.status).toBe('active');
  });

  it('reminds by e-mail once, 3 days before a trial ends without a card and 3 days before a renewal', async () => {
    const trial = await activeCustomer(server);
    const paying = await activeCustomer(server);
    setClock(3.9 * DAY);
    await billing.sweep();
    expect(billingMails(trial.email)).toEqual([]);
    setClock(4.1 * DAY);
    await billing.sweep();
    await billing.sweep();
    expect(billingMails(trial.email).map((m) => m.subject)).toEqual(['Add a card to keep your line answering']);

    setClock(8 * DAY);
    await addCard(paying.client);
    const periodEnd = (await subscriptionOf(db(), paying.user.id))!.currentPeriodEnd!;
    setClock(periodEnd.getTime() - Date.now() - 3.1 * DAY);
    await billing.sweep();
    expect(billingMails(paying.email).filter((m) => /renews on/.test(m.subject))).toEqual([]);
    setClock(periodEnd.getTime() - Date.now() - 2.9 * DAY);
    await billing.sweep();
    await billing.sweep();
    const renewal = billingMails(paying.email).filter((m) => /renews on/.test(m.subject));
    expect(renewal).toHaveLength(1);
    expect(renewal[0]!.text).toContain('£39.00');
  });

  it('the admin sees subscriptions by state and this London month\'s paid invoices in pence', async () => {
    const owner = await activeCustomer(server);
    await addCard(owner.client);
    const admin = await signInAdmin(server);
    const res = await admin.get(PAYMENT_ROUTES.adminBilling);
    expect(res.status).toBe(200);
    const all = operator.subscriptions();
    const count = (s: string) => all.filter((x) => x.status === s).length;
    const from = londonMonthStartUtc(Date.now()) / 1000;
    const to = londonMonthStartUtc(Date.now() + 32 * DAY - (Date.now() - londonMonthStartUtc(Date.now()))) / 1000;
    const revenue = operator.invoices().filter((i) => i.status === 'paid' && i.status_transitions.paid_at! >= from && i.status_transitions.paid_at! < to).reduce((sum, i) => sum + i.amount_paid, 0);
    expect(res.body).toEqual({ enabled: true, trialling: count('trialing'), active: count('active'), pastDue: count('past_due') + count('unpaid'), cancelled: count('canceled'), monthlyRevenuePence: revenue, currency: 'gbp' });
    expect(res.body.monthlyRevenuePence).toBeGreaterThanOrEqual(3900);
    expect((await owner.client.get(PAYMENT_ROUTES.adminBilling)).status).toBe(403);
  });
});
