// The return pages after Stripe Checkout (issue 59 audit), in Chromium at 375 px with axe: the
// caller's /deposit/thanks and /deposit/not-paid (public, no login, plain words; before, the
// console's 404), and Account Settings' ?billing=added line, shown until the server shows the
// card. Nothing is trusted from a return URL: visiting changes nothing in the store.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAYMENT_ROUTES } from '../../contract/payments.js';
import { startStripeDouble, type StripeDouble } from '../doubles/stripe/server.js';
import { bookings } from '../helpers/tables.js';
import { seriousViolations } from './support/axe.js';
import { customerPage, useE2E } from './support/browser.js';
import { outsideViewport } from './support/viewport-fit.js';

const OPERATOR_KEY = 'sk_test_operatorreturns0000001';
let double: StripeDouble;
beforeAll(async () => {
  double = await startStripeDouble();
  const operator = double.account({ key: OPERATOR_KEY, name: 'CallKeeper Operator Ltd' });
  const priceId = operator.price({ unitAmount: 3900, currency: 'gbp', interval: 'month', nickname: 'Professional Plan' }).id;
  Object.assign(env, { STRIPE_PRICE_ID: priceId, STRIPE_API_BASE: double.url });
});
const env: Record<string, string> = { BILLING: 'stripe', STRIPE_SECRET_KEY: OPERATOR_KEY, STRIPE_WEBHOOK_SECRET: 'whsec_test_returns_e2e' };
const e2e = useE2E(env, 180_000);
afterAll(async () => {
  await double?.close();
});

/** Every request the page sends the box other than a read: a return page must send none. */
function writesFrom(page: Page): string[] {
  const writes: string[] = [];
  page.on('request', (r) => {
    if (r.method() !== 'GET' && r.url().includes('/api/')) writes.push(`${r.method()} ${new URL(r.url()).pathname}`);
  });
  return writes;
}
const store = async () => e2e.server.database.db.select().from(bookings);

describe('the pages Stripe Checkout returns to, at 375 px', () => {
  it('the caller\'s thanks and not-paid pages say what happens next, need no login, and change nothing', async () => {
    const page = await e2e.page({ width: 375, height: 800 });
    const writes = writesFrom(page);
    const before = await store();
    await page.goto('/deposit/thanks');
    await page.getByRole('heading', { name: 'Thank you' }).waitFor();
    expect(await page.getByTestId('deposit-thanks').innerText()).toContain('Thank you: your deposit is being confirmed. You will get a text when your booking is confirmed.');
    expect(await page.getByText('404 Page Not Found').count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    expect(await outsideViewport(page)).toEqual([]);

    await page.goto('/deposit/not-paid');
    await page.getByRole('heading', { name: 'Your deposit was not paid' }).waitFor();
    expect(await page.getByTestId('deposit-notPaid').innerText()).toContain('Your deposit was not paid. Your time is held until the time given in your text; use the link in your text to pay, or ring us.');
    expect(await seriousViolations(page)).toEqual([]);
    expect(await outsideViewport(page)).toEqual([]);
    expect(writes).toEqual([]);
    expect(await store()).toEqual(before);
  });

  it('Account Settings after "Add a card" thanks the owner until Stripe tells the box, and changes nothing itself', async () => {
    const { page, customer } = await customerPage(e2e, { businessName: 'Hartley Returns', businessPhone: '07700 900731' }, { width: 375, height: 900 });
    const plan = (await customer.client.get(PAYMENT_ROUTES.billing)).body;
    expect(plan).toMatchObject({ enabled: true, hasCard: false });
    const writes = writesFrom(page);
    await page.goto('/dashboard/account?billing=added');
    await page.getByTestId('billing-return').waitFor();
    expect(await page.getByTestId('billing-return').innerText()).toBe('Thank you: your card is being confirmed with Stripe. Your plan shows here as soon as Stripe tells the box.');
    expect(await seriousViolations(page)).toEqual([]);
    expect(await outsideViewport(page)).toEqual([]);
    expect(writes).toEqual([]);
    expect((await customer.client.get(PAYMENT_ROUTES.billing)).body).toEqual(plan);
  });
});
