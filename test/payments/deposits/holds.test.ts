// Issue 59 part B, the money side of a booking's deposit, against the Stripe double: the pay
// link (the Checkout Session as Stripe received it, the text in the outbox), paid once however
// often and in whatever order the events come, the hold's end on a fake clock (expired at Stripe
// first; Stripe down → the hold stays), a payment after the release refunded and the owner told,
// refunds on the owner's cancel, keep or refund on the caller's, and Stripe down → DepositUnavailable
// with nothing half-made.
import { describe, expect, it } from 'vitest';
import type Stripe from 'stripe';
import { eq } from 'drizzle-orm';
import { bookings } from '../../helpers/tables.js';
import { DepositUnavailable } from '../../../core/payments/parts.js';
import { outboxTo, ownerTextsTo } from '../../caller-texts/helpers.js';
import { awaitingBooking, bookingRow, CALLER, cancelAs, connected, OWNER_PHONE, useWorld } from './setup.js';

const theWorld = useWorld();

const LINK_TEXT = /^Hartley Plumbing: your boiler service on Tue 8 Dec, 10:00 is held until 09:3\d\. Pay the £20\.00 deposit to confirm: (\S+)$/;
const texts = () => outboxTo(theWorld().server, CALLER).map((m) => m.body);
/** The session's event as the webhook intake hands it on (after its signature and id checks). */
const deliver = (e: Stripe.Event) => theWorld().deposits.handlers.deposits(theWorld().userId, e);

async function held() {
  const account = await connected(theWorld());
  const id = await awaitingBooking(theWorld());
  const hold = await theWorld().deposits.startHold(id);
  const row = await bookingRow(theWorld(), id);
  return { account, id, hold, sessionId: row.depositSessionId! };
}

describe('a booking\'s deposit', () => {
  it('makes the Checkout Session from the booking (amount, expiry, metadata, its own idempotency key) and texts the link', async () => {
    const w = theWorld();
    const { account, id, hold, sessionId } = await held();
    const [session] = account.sessions();
    expect(session).toMatchObject({ id: sessionId, mode: 'payment', currency: 'gbp', amount_total: 2000, client_reference_id: String(id), metadata: { booking_id: String(id), user_id: String(w.userId) } });
    const create = w.stripe.requests.find((r) => r.method === 'POST' && r.path === '/v1/checkout/sessions' && r.status === 200)!;
    expect(create.idempotencyKey).toBe(`deposit-checkout:${id}`);
    expect(w.stripe.violations).toEqual([]);
    const due = (await bookingRow(w, id)).depositDueAt!;
    // The 30-minute hold ends under Stripe's 30 minutes from the session's making: the session is kept 32 minutes, the hold is not.
    // (Whole seconds: the box's clock may cross a second between its sum and the double's reading.)
    expect(session!.expires_at - session!.created).toBeGreaterThanOrEqual(32 * 60 - 1);
    expect(session!.expires_at - session!.created).toBeLessThanOrEqual(32 * 60);
    expect(session!.expires_at).toBeGreaterThan(Math.floor(due.getTime() / 1000));
    expect(hold).toEqual({ url: session!.url, dueAt: due, stands: true });
    expect(await bookingRow(w, id)).toMatchObject({ depositState: 'awaiting', depositUrl: session!.url, status: 'booked' });
    expect(texts()).toHaveLength(1);
    expect(texts()[0]!.match(LINK_TEXT)?.[1]).toBe(session!.url);
    // Asked again (a retried turn): the same link, no second session or text.
    expect(await w.deposits.startHold(id)).toEqual(hold);
    expect(account.sessions()).toHaveLength(1);
    expect(texts()).toHaveLength(1);
  });

  it('makes the link for a 30-minute hold claimed moments before (Stripe\'s 30-minute floor), and still releases at the hold\'s end', async () => {
    const w = theWorld();
    const account = await connected(w);
    const id = await awaitingBooking(w);
    // The claim, then the session a few seconds later: the hold's end is under 30 minutes away.
    w.server.clock.offsetMs += 5_000;
    const hold = await w.deposits.startHold(id);
    expect(w.stripe.requests.filter((r) => r.idempotencyKey === `deposit-checkout:${id}`).map((r) => r.status)).toEqual([200]);
    const due = (await bookingRow(w, id)).depositDueAt!;
    expect(hold.dueAt).toEqual(due);
    expect(texts()[0]).toMatch(LINK_TEXT);
    // The booking is released at its own due time, the longer-lived session expired at Stripe first.
    w.server.clock.offsetMs = due.getTime() - Date.now() + 1_000;
    await w.deposits.sweep();
    expect(await bookingRow(w, id)).toMatchObject({ status: 'cancelled', cancelledBy: 'unpaid', depositState: 'expired' });
    expect(account.sessions()[0]!.status).toBe('expired');
  });

  it('confirms once when the paid event comes twice and after a stale expired one, stating the owner\'s policy', async () => {
    const w = theWorld();
    const { account, id, sessionId } = await held();
    const open = account.sessions()[0]!;
    const staleExpired = w.stripe.event('checkout.session.expired', { ...structuredClone(open), status: 'expired' });
    const [completed] = w.stripe.completeCheckout(sessionId);
    await deliver(completed!);
    await deliver(staleExpired);
    await deliver(completed!);
    const row = await bookingRow(w, id);
    expect(row).toMatchObject({ status: 'booked', depositState: 'paid', depositPaymentIntent: account.sessions()[0]!.payment_intent });
    expect(texts().slice(1)).toEqual(['Hartley Plumbing: thank you, your £20.00 deposit is paid and your boiler service on Tue 8 Dec, 10:00 is confirmed. Reply C to cancel. Deposits are refunded if you cancel 24 hours ahead.']);
    // The owner's devices hear of the booking once it stands, once however often it was paid.
    expect(w.news).toEqual([{ userId: w.userId, event: `booking-paid-${id}`, kind: 'booking', staffId: null, title: 'Bookings', body: `${row.callerName} (${row.callerNumber}) paid the £20.00 deposit: boiler service on Tue 8 Dec, 10:00 is booked.`, url: '/dashboard/bookings', callerNumber: CALLER }]);
  });

  it('at the hold\'s end expires the session at Stripe, then releases the time, texts the caller and tells the owner; Stripe down keeps the hold', async () => {
    const w = theWorld();
    const { account, id } = await held();
    w.server.clock.offsetMs += 29 * 60_000;
    await w.deposits.sweep();
    expect((await bookingRow(w, id)).depositState).toBe('awaiting');
    w.server.clock.offsetMs += 2 * 60_000;
    await w.stripe.down(true, 'refused');
    await w.deposits.sweep();
    expect(await bookingRow(w, id)).toMatchObject({ status: 'booked', depositState: 'awaiting' });
    await w.stripe.down(false);
    await w.deposits.sweep();
    expect(await bookingRow(w, id)).toMatchObject({ status: 'cancelled', cancelledBy: 'unpaid', depositState: 'expired' });
    expect(account.sessions()[0]!.status).toBe('expired');
    // Every try carried the booking's own key (a try cut off while Stripe was down may have reached it: the key makes that harmless).
    const expires = w.stripe.requests.filter((r) => r.path.endsWith('/expire'));
    expect(expires.length).toBeGreaterThan(0);
    expect([...new Set(expires.map((r) => r.idempotencyKey))]).toEqual([`deposit-expire:${id}`]);
    expect(texts().slice(1)).toEqual(['Hartley Plumbing: the deposit for your boiler service on Tue 8 Dec, 10:00 was not paid in time, so the time has been released. Please call us to book again.']);
    expect(ownerTextsTo(w.server, OWNER_PHONE).map((m) => m.body)).toEqual(['Jo (+447700900301) did not pay the £20.00 deposit for boiler service on Tue 8 Dec, 10:00: the time was released.']);
    // Swept again, and the expired event arriving late: nothing more.
    await w.deposits.sweep();
    await deliver(w.stripe.events.find((e) => e.type === 'checkout.session.expired')!);
    expect(texts()).toHaveLength(2);
  });

  it('a session paid by the hold\'s end is confirmed, not released', async () => {
    const w = theWorld();
    const { id, sessionId } = await held();
    w.stripe.completeCheckout(sessionId);
    w.server.clock.offsetMs += 31 * 60_000;
    await w.deposits.sweep();
    expect(await bookingRow(w, id)).toMatchObject({ status: 'booked', depositState: 'paid' });
    expect(texts()[1]).toMatch(/deposit is paid/);
  });

  it('refunds a payment that comes after the release, once, and tells the owner the slot may be gone', async () => {
    const w = theWorld();
    const { account, id, sessionId } = await held();
    // The caller pays in the instant the hold is released (Stripe's answer and the release crossed): the row as a release leaves it.
    const [completed] = w.stripe.completeCheckout(sessionId);
    await w.server.database.db.update(bookings).set({ status: 'cancelled', cancelledBy: 'unpaid', depositState: 'expired' }).where(eq(bookings.id, id));
    await deliver(completed!);
    await deliver(completed!);
    expect(await bookingRow(w, id)).toMatchObject({ status: 'cancelled', depositState: 'refunded' });
    expect(account.refunds()).toHaveLength(1);
    expect(account.refunds()[0]).toMatchObject({ amount: 2000, payment_intent: account.sessions()[0]!.payment_intent });
    expect(ownerTextsTo(w.server, OWNER_PHONE).map((m) => m.body)).toEqual(['Jo (+447700900301) paid the £20.00 deposit for boiler service on Tue 8 Dec, 10:00 after the hold was released: it is being refunded. Call them if you can still fit them in.']);
    expect(texts().slice(1)).toEqual(['Hartley Plumbing: your £20.00 deposit for the boiler service on Tue 8 Dec, 10:00 is being refunded to your card.']);
  });

  it('a booking cancelled while its link is out: the session expired at Stripe, nothing refunded', async () => {
    const w = theWorld();
    const { account, id } = await held();
    await cancelAs(w, id, 'owner');
    expect((await bookingRow(w, id)).depositState).toBe('expired');
    expect(account.sessions()[0]!.status).toBe('expired');
    expect(account.refunds()).toHaveLength(0);
  });

  it('refunds when the owner cancels a paid booking', async () => {
    const w = theWorld();
    const { account, id, sessionId } = await held();
    await deliver(w.stripe.completeCheckout(sessionId)[0]!);
    await cancelAs(w, id, 'owner');
    expect((await bookingRow(w, id)).depositState).toBe('refunded');
    expect(account.refunds()).toHaveLength(1);
    expect(w.stripe.requests.find((r) => r.path === '/v1/refunds' && r.status === 200)!.idempotencyKey).toBe(`deposit-refund:${id}`);
    expect(texts().at(-1)).toMatch(/is being refunded to your card\.$/);
  });

  it('keeps or refunds when the caller cancels, per the owner\'s policy', async () => {
    const w = theWorld();
    const account = await connected(w, { refundOnCallerCancel: false, policy: 'Deposits are not refunded.' });
    const keep = await awaitingBooking(w);
    await w.deposits.startHold(keep);
    await deliver(w.stripe.completeCheckout((await bookingRow(w, keep)).depositSessionId!)[0]!);
    await cancelAs(w, keep, 'caller');
    expect((await bookingRow(w, keep)).depositState).toBe('kept');
    expect(account.refunds()).toHaveLength(0);
    expect(texts().at(-1)).toBe('Hartley Plumbing: as our deposit policy says, the £20.00 deposit for the boiler service on Tue 8 Dec, 10:00 is not refunded on cancellation.');

    await w.deposits.save(w.userId, { refundOnCallerCancel: true });
    const back = await awaitingBooking(w);
    await w.deposits.startHold(back);
    await deliver(w.stripe.completeCheckout((await bookingRow(w, back)).depositSessionId!)[0]!);
    await cancelAs(w, back, 'caller');
    expect((await bookingRow(w, back)).depositState).toBe('refunded');
    expect(account.refunds()).toHaveLength(1);
  });

  it('a refund Stripe could not take is made by the next sweep', async () => {
    const w = theWorld();
    const { account, id, sessionId } = await held();
    await deliver(w.stripe.completeCheckout(sessionId)[0]!);
    await w.stripe.down(true, 'refused');
    await cancelAs(w, id, 'owner');
    expect((await bookingRow(w, id)).depositState).toBe('paid');
    await w.stripe.down(false);
    await w.deposits.sweep();
    expect((await bookingRow(w, id)).depositState).toBe('refunded');
    expect(account.refunds()).toHaveLength(1);
  });

  it('Stripe down when the link is made: DepositUnavailable, no session on the booking, no text', async () => {
    const w = theWorld();
    const account = await connected(w);
    const id = await awaitingBooking(w);
    await w.stripe.down(true, 'refused');
    await expect(w.deposits.startHold(id)).rejects.toBeInstanceOf(DepositUnavailable);
    expect(await bookingRow(w, id)).toMatchObject({ depositSessionId: null, depositUrl: null });
    expect(account.sessions()).toHaveLength(0);
    expect(texts()).toEqual([]);
  });
});
