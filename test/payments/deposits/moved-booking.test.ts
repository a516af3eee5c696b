// Regression (issue 59): a booking moved while it awaits its deposit takes its Checkout Session
// with it (core/booking/store/claim.ts), but the session's metadata still names the booking it
// was made for. The payment must confirm the booking that now holds the session, found by the
// session's id, not the old one by its metadata. The whole road as it runs: the agent's desk books
// and moves, the box's own deposit service makes the link, Stripe's signed event comes in through
// the webhook intake. On SQLite, and on PostgreSQL with TEST_DATABASE=postgres.
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PAYMENT_ROUTES } from '../../../contract/payments.js';
import { shortWhen } from '../../../dialogue/language/dates.js';
import { activeCustomer } from '../../helpers/accounts.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { bookings, bookingServices } from '../../helpers/tables.js';
import { giveNumber, outboxTo } from '../../caller-texts/helpers.js';
import { callFrom } from '../../booking/fixtures.js';
import { startStripeDouble, type StripeDouble } from '../../doubles/stripe/server.js';
import { awaitingBooking, bookingRow, CALLER, connected, KEY, RIGHTS, useWorld } from './setup.js';

/** Tuesday 8 December 2026, 08:00 London (GMT): Wednesday morning is free. */
const NOW = Date.parse('2026-12-08T08:00:00Z');

let server: TestServer | undefined;
let stripe: StripeDouble | undefined;
afterEach(async () => {
  await stripe?.close();
  await server?.close();
  server = stripe = undefined;
});

const rowOf = async (id: number) => (await server!.database.db.select().from(bookings).where(eq(bookings.id, id)))[0]!;

describe('a booking moved while it awaits its deposit', () => {
  // Started in a hook (60 s), not inside the test's own 30 s, which a loaded machine used up.
  beforeEach(async () => {
    // The double signs and expires on the box's clock.
    stripe = await startStripeDouble({ now: () => server?.services.now() ?? new Date(NOW) });
    server = await startTestServer({ env: { STRIPE_API_BASE: stripe.url } });
  });

  it('is confirmed when the caller pays the link they were texted: the new booking paid, texted once, the old one left as moved', async () => {
    if (!server || !stripe) throw new Error('The box and the Stripe double were not started');
    server.clock.offsetMs = NOW - Date.now();
    const s = server;
    const { user, client } = await activeCustomer(s, { businessName: 'Hartley Plumbing' });
    await giveNumber(s, user.id, '+447700900050');
    await s.database.db.insert(bookingServices).values({ userId: user.id, name: 'boiler service', durationMinutes: 60, pricePence: 8000, depositKind: 'fixed', depositPence: 2000, depositHoldMinutes: 45 });

    // The owner connects their Stripe account as the console does.
    const account = stripe.account({ key: KEY, name: 'Hartley Plumbing Ltd', permissions: RIGHTS });
    expect((await client.request('PUT', PAYMENT_ROUTES.stripe, { secretKey: KEY, depositPolicy: 'Deposits are refunded if you cancel 24 hours ahead.' })).status).toBe(200);
    expect((await client.post(PAYMENT_ROUTES.stripeTest)).body).toMatchObject({ ok: true });
    const secret = account.webhookEndpoints()[0]!.secret!;

    // The caller books (the link texted), then moves to the next time in the same call.
    const desk = s.services.booking.desk(user.id);
    const offer = await desk.offer({ wish: 'Wednesday morning' });
    if (offer.kind !== 'offered') throw new Error(`no offer: ${offer.kind}`);
    const [first, second] = offer.slots;
    const callId = await callFrom(s.database.db, user.id, CALLER);
    const booked = await desk.book({ slotId: first!.id, callId, callerName: 'Jo', callerNumber: CALLER });
    if (booked.kind !== 'booked') throw new Error(`not booked: ${booked.kind}`);
    const oldId = booked.booking.id;
    const sessionId = (await rowOf(oldId)).depositSessionId!;
    expect(account.sessions()[0]).toMatchObject({ id: sessionId, metadata: { booking_id: String(oldId) } });
    const moved = await desk.move(oldId, { slotId: second!.id, callId, callerName: 'Jo', callerNumber: CALLER });
    if (moved.kind !== 'booked') throw new Error(`not moved: ${moved.kind}`);
    const newId = moved.booking.id;
    expect(newId).not.toBe(oldId);
    const oldBefore = await rowOf(oldId);

    // Paid on Stripe's page; the signed event delivered to the box (twice, as Stripe may).
    const [completed] = stripe.completeCheckout(sessionId);
    const url = s.url + PAYMENT_ROUTES.depositsWebhook(user.id);
    for (let i = 0; i < 2; i++) expect((await stripe.send(url, completed!, secret)).status).toBe(200);

    expect(await rowOf(newId)).toMatchObject({ status: 'booked', depositState: 'paid', depositSessionId: sessionId, depositPaymentIntent: account.sessions()[0]!.payment_intent });
    expect(await rowOf(oldId)).toEqual(oldBefore);
    expect(oldBefore).toMatchObject({ status: 'cancelled', cancelledBy: 'moved', movedToId: newId, depositSessionId: null });
    const paidTexts = outboxTo(s, CALLER).map((m) => m.body).filter((b) => b.includes('deposit is paid'));
    expect(paidTexts).toEqual([`Hartley Plumbing: thank you, your £20.00 deposit is paid and your boiler service on ${shortWhen(second!.start)} is confirmed. Reply C to cancel. Deposits are refunded if you cancel 24 hours ahead.`]);

    // The hold's end finds nothing to release: the booking stands, nothing refunded.
    s.clock.offsetMs += 60 * 60_000;
    await s.services.deposits.sweep();
    expect(await rowOf(newId)).toMatchObject({ status: 'booked', depositState: 'paid' });
    expect(account.refunds()).toEqual([]);
    // Nothing awaits a deposit any more (the moved row is history): the owner may disconnect.
    const disconnect = await client.delete(PAYMENT_ROUTES.stripe);
    expect(disconnect.status, disconnect.text).toBe(200);
    expect(stripe.violations).toEqual([]);
  });
});

// booking's diary withdraws a fresh held booking whose calendar then refused the time by cancelling
// it as 'moved' (core/booking/diary.ts), though it moved nowhere: its link is still out, so it is
// settled as any cancelled booking is, never skipped as a moved one whose deposit went along.
describe('a held booking withdrawn as moved, but moved nowhere', () => {
  const theWorld = useWorld();

  async function withdrawn(paidFirst: boolean) {
    const w = theWorld();
    const account = await connected(w);
    const id = await awaitingBooking(w);
    await w.deposits.startHold(id);
    const sessionId = (await bookingRow(w, id)).depositSessionId!;
    if (paidFirst) w.stripe.completeCheckout(sessionId);
    await w.server.database.db.update(bookings).set({ status: 'cancelled', cancelledBy: 'moved', cancelledAt: w.server.services.now() }).where(eq(bookings.id, id));
    await w.deposits.cancelled(id, 'owner');
    return { account, id };
  }

  it('has its link expired at Stripe', async () => {
    const { account, id } = await withdrawn(false);
    expect(account.sessions()[0]!.status).toBe('expired');
    expect((await bookingRow(theWorld(), id)).depositState).toBe('expired');
    expect(account.refunds()).toEqual([]);
  });

  it('refunds a deposit paid on it', async () => {
    const { account, id } = await withdrawn(true);
    expect((await bookingRow(theWorld(), id)).depositState).toBe('refunded');
    expect(account.refunds()).toEqual([expect.objectContaining({ amount: 2000, payment_intent: account.sessions()[0]!.payment_intent })]);
  });
});
