// Deposits in the console (issue 59), in Chromium at 375 and 1280 px with axe in light and dark:
// a fixed deposit and its hold on a new service, refused in words until Stripe is connected; the
// owner pastes a restricted key and tests it against the Stripe double ("Connected to … (test
// mode)."), and the service is saved; then bookings of it in each deposit state (awaiting, paid,
// expired, refunded) on the bookings list and in Call Details. The bookings are made as the owner
// makes them from Call Details (the real deposit desk makes each Checkout Session at the double);
// the double then pays or expires them and Stripe's signed events reach the box's deposits
// endpoint; the refund is the owner's cancellation.
import type Stripe from 'stripe';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAYMENT_ROUTES } from '../../contract/payments.js';
import { callFrom } from '../booking/fixtures.js';
import { giveNumber } from '../caller-texts/helpers.js';
import { startStripeDouble, type StripeDouble, type StripePermission } from '../doubles/stripe/server.js';
import { darkSeriousViolations, seriousViolations } from './support/axe.js';
import { runBookingWorkers } from './support/booking-workers.js';
import { attachScreenshot, customerPage, expectToast, until, useE2E } from './support/browser.js';
import { outsideViewport } from './support/viewport-fit.js';

/** The rights docs/payments.md asks for. */
const RIGHTS: StripePermission[] = ['rak_checkout_session_write', 'rak_refund_write', 'rak_webhook_write', 'rak_account_read'];

let double: StripeDouble;
const env: Record<string, string> = {};
// The double must be up before the server reads its env: useE2E's beforeAll runs after this one.
beforeAll(async () => {
  double = await startStripeDouble();
  env.STRIPE_API_BASE = double.url;
});
const e2e = useE2E(env, 180_000);
runBookingWorkers(e2e);
afterAll(async () => {
  // Every POST the box made carried its own idempotency key (the double refuses and records any other).
  expect(double.violations).toEqual([]);
  await double?.close();
});

const clock = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/London', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
const londonDay = (t: Date) => t.toLocaleDateString('en-GB', { timeZone: 'Europe/London' });
/** What the console says of a hold (console/src/lib/deposit-words.ts), its date only when on another London day. */
const awaitingWords = (dueIso: string) => {
  const due = new Date(dueIso);
  return `Awaiting deposit until ${clock.format(due)}${londonDay(due) === londonDay(new Date()) ? '' : ` on ${londonDay(due)}`}`;
};

async function clean(page: Page) {
  expect(await seriousViolations(page)).toEqual([]);
  expect(await outsideViewport(page)).toEqual([]);
  expect(await darkSeriousViolations(page)).toEqual([]);
}

describe.each([375, 1280])('Deposits at %i px', (width) => {
  it('connects Stripe, sets a deposit on a service, and shows each booking\'s deposit state in the list and in Call Details', async ({ annotate }) => {
    const n = width === 375 ? 1 : 2;
    const key = `rk_test_hartley${width}000000000000000001`;
    const account = double.account({ key, name: 'Hartley Plumbing Ltd', permissions: RIGHTS });
    const { page, customer } = await customerPage(e2e, { businessName: 'Hartley Plumbing', businessPhone: `07700 9006${n}0` }, { width, height: 900 });
    const server = e2e.server;
    const userId = customer.user.id;
    await giveNumber(server, userId, `+44770090060${n}`);

    // A service with a fixed £20 deposit that holds the time for an hour: refused until Stripe is connected.
    await page.goto('/dashboard/bookings?tab=services');
    const add = page.getByRole('form', { name: 'Add a service' });
    await add.getByRole('textbox', { name: 'Service name' }).fill('Boiler service');
    await add.getByRole('combobox', { name: 'Deposit' }).selectOption('fixed');
    await add.getByRole('textbox', { name: 'Deposit (£)' }).fill('20');
    await add.getByText('From £0.30 to £1,000.00', { exact: true }).waitFor();
    await add.getByRole('spinbutton', { name: 'Hold the time for (minutes)' }).fill('60');
    await clean(page);
    await add.getByRole('button', { name: 'Add service' }).click();
    const refusal = 'Connect your Stripe account under Payments first: deposits are paid to it.';
    await add.getByText(refusal, { exact: true }).waitFor();
    expect(await add.getByRole('combobox', { name: 'Deposit' }).getAttribute('aria-invalid')).toBe('true');
    await clean(page);

    // Connect: the key pasted and tested in one go (a typed key is saved first).
    const payments = page.getByRole('region', { name: 'Payments' });
    await payments.getByText('Not connected yet.', { exact: false }).waitFor();
    await payments.getByLabel('Stripe restricted key').fill(key);
    await payments.getByRole('button', { name: 'Test connection' }).click();
    await until(async () => expect(await payments.getByTestId('stripe-test-result').innerText()).toBe('Connected to Hartley Plumbing Ltd (test mode).'));
    const connected = payments.getByTestId('stripe-connected');
    await connected.getByText(`Key ending ${key.slice(-4)}`).waitFor();
    await connected.getByText('Test mode').waitFor();
    expect(await payments.getByLabel('Replace the Stripe restricted key').inputValue()).toBe('');
    // The box made its one webhook endpoint on the owner's account, for its own address.
    const [endpoint] = account.webhookEndpoints();
    expect(endpoint?.url).toBe(`${server.config.publicUrl}${PAYMENT_ROUTES.depositsWebhook(userId)}`);
    expect((await customer.client.get(PAYMENT_ROUTES.stripe)).body).toMatchObject({ connected: true, accountLabel: 'Hartley Plumbing Ltd', livemode: false, keyEnding: key.slice(-4) });
    await clean(page);

    // Connected, the same form is sent again as it stands.
    expect(await add.getByRole('textbox', { name: 'Deposit (£)' }).inputValue()).toBe('20');
    await add.getByRole('button', { name: 'Add service' }).click();
    await expectToast(page, 'Service added');
    const services = (await customer.client.get('/api/user/booking/services')).body.services as { id: number; name: string }[];
    const service = services.find((s) => s.name === 'Boiler service')!;
    expect(service).toMatchObject({ depositKind: 'fixed', depositPence: 2000, depositHoldMinutes: 60 });
    expect(await add.getByRole('combobox', { name: 'Deposit' }).inputValue()).toBe('none');
    await page.getByRole('region', { name: 'Services', exact: true }).getByText('£20.00 deposit, paid within 60 minutes', { exact: true }).waitFor();

    // Four callers booked from their calls, each held for its deposit by a Checkout Session at the double.
    // The free times are read before each booking: a booking held for its deposit blocks its slot (and its neighbours).
    const firstFree = async () => {
      const times = (await customer.client.get(`/api/user/booking/times?serviceId=${service.id}`)).body.times as { start: string }[];
      expect(times.length).toBeGreaterThan(0);
      return times[0]!.start;
    };
    const people = ['Jo Bloggs', 'Sam Patel', 'Ali Khan', 'Mo Reid'];
    const booked: { name: string; callId: number; id: number; session: Stripe.Checkout.Session }[] = [];
    for (const [i, name] of people.entries()) {
      const callId = await callFrom(server.database.db, userId, `+4477009006${n}${i}`, { mode: 'voicemail', status: 'voicemail', wantsBooking: true });
      const res = await customer.client.post(`/api/call-logs/${callId}/booking`, { serviceId: service.id, start: await firstFree(), callerName: name });
      expect(res.status, res.text).toBe(201);
      const id = res.body.id as number;
      const session = account.sessions().find((s) => s.metadata?.booking_id === String(id));
      expect(session, `no Checkout Session for ${name}'s booking`).toBeDefined();
      booked.push({ name, callId, id, session: session! });
    }
    const [awaiting, paid, expired, refunded] = booked as [(typeof booked)[0], (typeof booked)[0], (typeof booked)[0], (typeof booked)[0]];
    const deliver = async (events: Stripe.Event[]) => {
      for (const event of events) {
        const res = await double.send(`${server.url}${PAYMENT_ROUTES.depositsWebhook(userId)}`, event, endpoint!.secret!);
        expect(res.status, res.body).toBe(200);
      }
    };
    await deliver(double.completeCheckout(paid.session.id));
    await deliver(double.expireCheckout(expired.session.id));
    await deliver(double.completeCheckout(refunded.session.id));
    expect((await customer.client.post(`/api/user/bookings/${refunded.id}/cancel`)).status).toBe(200);
    const listed = async () => (await customer.client.get('/api/user/bookings')).body.bookings as { id: number; status: string; depositState: string; depositDueAt: string | null }[];
    await until(async () =>
      expect((await listed()).filter((b) => booked.some((x) => x.id === b.id)).map((b) => [b.id, b.status, b.depositState]).sort()).toEqual(
        [
          [awaiting.id, 'booked', 'awaiting'],
          [paid.id, 'booked', 'paid'],
          [expired.id, 'cancelled', 'expired'],
          [refunded.id, 'cancelled', 'refunded'],
        ].sort(),
      ),
    );
    expect(account.refunds().map((r) => r.amount)).toEqual([2000]);
    const due = (await listed()).find((b) => b.id === awaiting.id)!.depositDueAt!;

    // The bookings list: each card says where its deposit stands.
    await page.goto('/dashboard/bookings');
    const card = (name: string) => page.getByRole('listitem').filter({ hasText: name });
    const expected: [string, string[]][] = [
      [awaiting.name, [awaitingWords(due)]],
      [paid.name, ['Deposit paid']],
      [expired.name, ['Released: not paid', 'Cancelled']],
      [refunded.name, ['Deposit refunded', 'Cancelled']],
    ];
    for (const [name, words] of expected) {
      await card(name).first().waitFor();
      for (const w of words) await card(name).getByText(w, { exact: true }).waitFor();
    }
    expect(await card(paid.name).getByText(/Awaiting|Released|refunded/).count()).toBe(0);
    await clean(page);
    await attachScreenshot(page, annotate, `money-deposits-list-${width}`);

    // Call Details: the booking the call made, with its deposit's badge.
    for (const [who, words] of [[awaiting, awaitingWords(due)], [refunded, 'Deposit refunded']] as const) {
      await page.goto(`/dashboard?call=${who.callId}`);
      const booking = page.getByRole('dialog', { name: 'Call Details' }).getByRole('region', { name: 'Booking' });
      await booking.getByText(words, { exact: true }).waitFor();
      await clean(page);
    }
  });
});
