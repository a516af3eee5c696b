// The operator's plan in the console (issue 59, BILLING=stripe through the Stripe double), in
// Chromium at 375 and 1280 px with axe in light and dark: Account Settings' plan during the trial,
// "Add a card" leaving for the Checkout Session's URL (answered in the browser by the test, so no
// request leaves the machine), the card added by Stripe's signed webhooks, the plan active with its
// next payment and its invoices' hosted links, Cancel → "Cancels on …" with "Keep my plan", a failed
// payment's banner on the dashboard; then the admin's Subscriptions card on Usage & Costs.
import type Stripe from 'stripe';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAYMENT_ROUTES } from '../../contract/payments.js';
import { londonMonthStartUtc } from '../../core/time/london-time.js';
import { startStripeDouble, type StripeAccountHandle, type StripeDouble } from '../doubles/stripe/server.js';
import type { ApiClient } from '../helpers/client.js';
import { darkSeriousViolations, seriousViolations } from './support/axe.js';
import { adminPage, attachScreenshot, customerPage, expectToast, until, useE2E } from './support/browser.js';
import { outsideViewport } from './support/viewport-fit.js';

const OPERATOR_KEY = 'sk_test_operatore2e000000001';
const WEBHOOK_SECRET = 'whsec_test_billing_e2e';
const CHECKOUT_HOST = 'https://checkout.stripe.com/';

let double: StripeDouble;
let operator: StripeAccountHandle;
let priceId = '';
// The double must be up before the server reads its env: useE2E's beforeAll runs after this one.
beforeAll(async () => {
  double = await startStripeDouble();
  operator = double.account({ key: OPERATOR_KEY, name: 'CallKeeper Operator Ltd' });
  priceId = operator.price({ unitAmount: 3900, currency: 'gbp', interval: 'month', nickname: 'Professional Plan' }).id;
  Object.assign(env, { STRIPE_PRICE_ID: priceId, STRIPE_API_BASE: double.url });
});
const env: Record<string, string> = { BILLING: 'stripe', STRIPE_SECRET_KEY: OPERATOR_KEY, STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET };
const e2e = useE2E(env, 180_000);
afterAll(async () => {
  // Every POST the box made carried its own idempotency key (the double refuses and records any other).
  expect(double.violations).toEqual([]);
  await double?.close();
});

/** Stripe's events delivered to the box's billing endpoint, signed, each taken. */
async function deliver(events: Stripe.Event[]) {
  for (const event of events) {
    const res = await double.send(`${e2e.server.url}/api/stripe/webhooks/billing`, event, WEBHOOK_SECRET);
    expect(res.status, res.body).toBe(200);
  }
}
/** The console's own date (SPEC §9, dd/MM/yyyy in London) and the banner's "9 Dec". */
const consoleDate = (iso: string) => new Date(iso).toLocaleDateString('en-GB', { timeZone: 'Europe/London' });
const bannerDay = (iso: string) => new Date(iso).toLocaleDateString('en-GB', { timeZone: 'Europe/London', day: 'numeric', month: 'short' });

async function clean(page: Page) {
  expect(await seriousViolations(page)).toEqual([]);
  expect(await outsideViewport(page)).toEqual([]);
  expect(await darkSeriousViolations(page)).toEqual([]);
}
const planOf = async (client: ApiClient) => (await client.get(PAYMENT_ROUTES.billing)).body;

describe.each([375, 1280])('The plan at %i px', (width) => {
  it('trial, Add a card through Checkout, active with invoices, Cancel and Keep my plan, and a failed payment\'s banner', async ({ annotate }) => {
    const { page, customer } = await customerPage(e2e, { businessName: `Hartley Plumbing ${width}`, businessPhone: `07700 9007${width === 375 ? '11' : '21'}` }, { width, height: 900 });
    const plan = page.getByTestId('plan-section');
    const status = plan.getByRole('definition').nth(1);

    // During the trial: the plan, its end, and a card offered.
    const trial = await planOf(customer.client);
    await page.goto('/dashboard/account');
    await plan.getByText('Professional Plan, £39.00 a month').waitFor();
    await until(async () => expect(await status.innerText()).toBe(`Free trial until ${consoleDate(trial.trialEndsAt)}`));
    await plan.getByText('No invoices yet.').waitFor();
    await clean(page);

    // "Add a card" leaves for Stripe's hosted page: the test answers that address in the browser itself.
    const checkoutPages: string[] = [];
    await page.route(`${CHECKOUT_HOST}**`, async (route) => {
      checkoutPages.push(route.request().url());
      await route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>Stripe Checkout (test)</title><p>Checkout</p>' });
    });
    await plan.getByRole('button', { name: 'Add a card' }).click();
    await page.waitForURL(`${CHECKOUT_HOST}**`);
    const session = operator.sessions().find((s) => s.client_reference_id === String(customer.user.id))!;
    expect(session.mode).toBe('subscription');
    expect(page.url()).toBe(session.url);
    expect(checkoutPages).toEqual([session.url]);

    // The card typed on Stripe's page; the box hears of it by the signed webhook only.
    await deliver(double.completeCheckout(session.id));
    const subscriptionId = operator.sessions().find((s) => s.id === session.id)!.subscription as string;
    await page.goto('/dashboard/account?billing=added');
    const trialing = await planOf(customer.client);
    expect(trialing).toMatchObject({ status: 'trialing', hasCard: true });
    await until(async () => expect(await status.innerText()).toBe(`Free trial until ${consoleDate(trialing.trialEndsAt)} (first payment on ${consoleDate(trialing.nextPaymentAt)})`));
    expect(await plan.getByRole('button', { name: 'Add a card' }).count()).toBe(0);

    // The trial's end: the first £39 paid, the plan active, both invoices linked to Stripe's pages.
    await deliver(double.renew(subscriptionId, { pay: true }));
    const active = await planOf(customer.client);
    expect(active).toMatchObject({ status: 'active', banner: null });
    await page.reload();
    await until(async () => expect(await status.innerText()).toBe(`Active — next payment on ${consoleDate(active.nextPaymentAt)}`));
    const invoices = plan.getByRole('table', { name: 'Invoices' });
    await until(async () => expect(await invoices.getByRole('row').count()).toBe(3));
    const hosted = operator.invoices().filter((i) => i.customer === session.customer);
    const links = invoices.getByRole('link', { name: /^View invoice of / });
    expect((await links.evaluateAll((as) => as.map((a) => a.getAttribute('href')))).sort()).toEqual(hosted.map((i) => i.hosted_invoice_url).sort());
    expect(await links.first().getAttribute('target')).toBe('_blank');
    await invoices.getByText('£39.00').waitFor();
    await invoices.getByText('£0.00').waitFor();
    expect(await invoices.getByText('Paid', { exact: true }).count()).toBe(2);
    await clean(page);
    await attachScreenshot(page, annotate, `money-billing-active-${width}`);

    // Cancel: asked first, then the plan says the day it ends, and can be kept until then.
    await plan.getByRole('button', { name: 'Cancel plan' }).click();
    const ask = page.getByRole('dialog', { name: 'Cancel your plan?' });
    await ask.getByText(`your line keeps answering until ${consoleDate(active.nextPaymentAt)}`, { exact: false }).waitFor();
    await clean(page);
    await ask.getByRole('button', { name: 'Cancel plan' }).click();
    await expectToast(page, `It runs until ${consoleDate(active.nextPaymentAt)}.`);
    const cancelled = await planOf(customer.client);
    expect(cancelled).toMatchObject({ cancelAtPeriodEnd: true, nextPaymentAt: null, periodEndsAt: active.nextPaymentAt });
    await until(async () => expect(await status.innerText()).toBe(`Cancels on ${consoleDate(cancelled.periodEndsAt)}`));
    await plan.getByRole('button', { name: 'Keep my plan' }).waitFor();
    expect(await plan.getByRole('button', { name: 'Cancel plan' }).count()).toBe(0);
    await clean(page);
    await page.goto('/dashboard');
    const banner = page.getByTestId('billing-banner');
    await until(async () => expect(await banner.innerText()).toBe(`Your plan is cancelled and ends on ${bannerDay(cancelled.periodEndsAt)}: you can resume it until then. Account Settings`));
    expect(await banner.getAttribute('role')).toBe('status');
    await clean(page);
    await page.goto('/dashboard/account');
    await plan.getByRole('button', { name: 'Keep my plan' }).click();
    await expectToast(page, 'Your plan continues');
    await until(async () => expect(await status.innerText()).toBe(`Active — next payment on ${consoleDate(active.nextPaymentAt)}`));
    expect(operator.subscriptions().find((s) => s.id === subscriptionId)?.cancel_at_period_end).toBe(false);

    // A failed payment: the dashboard's banner says by when, and the plan asks for a new card.
    await deliver(double.renew(subscriptionId, { pay: false }));
    const failed = await planOf(customer.client);
    expect(failed).toMatchObject({ status: 'past_due' });
    await page.goto('/dashboard');
    await until(async () => expect(await banner.innerText()).toBe(`Your last payment failed: update your card by ${bannerDay(failed.graceEndsAt)} or your line pauses. Account Settings`));
    expect(await banner.getAttribute('role')).toBe('status');
    await clean(page);
    await attachScreenshot(page, annotate, `money-billing-past-due-banner-${width}`);
    await banner.getByRole('link', { name: 'Account Settings' }).click();
    await until(async () => expect(await status.innerText()).toBe(`Payment failed — update your card by ${consoleDate(failed.graceEndsAt)}`));
    await plan.getByRole('button', { name: 'Update your card' }).waitFor();
    await invoices.getByText('Due', { exact: true }).waitFor();
    await clean(page);
  });
});

describe.each([375, 1280])("The admin's Subscriptions at %i px", (width) => {
  it("counts the owners' plans by state and this month's paid invoices", async () => {
    const { page, admin } = await adminPage(e2e, { width, height: 900 });
    const counts = (await admin.get(PAYMENT_ROUTES.adminBilling)).body;
    // Both owners above ended past due; the paid invoices of this London month are the double's own.
    const monthStart = londonMonthStartUtc(Date.now()) / 1000;
    const revenue = operator.invoices().filter((i) => i.status === 'paid' && i.created >= monthStart).reduce((sum, i) => sum + i.amount_paid, 0);
    expect(counts).toMatchObject({ enabled: true, trialling: 0, active: 0, pastDue: 2, cancelled: 0, monthlyRevenuePence: revenue });
    await page.goto('/dashboard/api-usage');
    const card = page.getByTestId('subscriptions-card');
    await card.getByRole('heading', { name: 'Subscriptions' }).waitFor();
    const line = (label: string) => card.getByRole('term').filter({ hasText: label }).locator('xpath=following-sibling::dd');
    expect(await line('Trialling').innerText()).toBe('0');
    expect(await line('Active').innerText()).toBe('0');
    expect(await line('Past due').innerText()).toBe('2');
    expect(await line('Cancelled').innerText()).toBe('0');
    expect(await line("This month's revenue").innerText()).toBe(`£${(revenue / 100).toFixed(2)}`);
    expect(revenue).toBe(2 * 3900);
    await clean(page);
  });
});
