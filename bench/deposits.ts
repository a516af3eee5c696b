// Deposits (issue 59): what a deposit adds to the agent's booking, whose answer the caller waits
// for within the diary's bound (DIARY_BOUND_MS, 1.5 s): a booking of a plain service (the claim)
// beside one of a deposit service (the claim, then the pay link made at Stripe and texted), on
// the real app's services with the Stripe double on loopback (no internet's round trip: add
// Stripe's own, typically 300–600 ms, to the deposit figure). And a paid event's webhook, from
// POST to 200 (signature, the session read again from Stripe, the booking confirmed and texted).
// Prints figures; asserts nothing. Run: npx tsx bench/deposits.ts (TEST_DATABASE=postgres for PostgreSQL)
import { eq } from 'drizzle-orm';
import { DIARY_BOUND_MS } from '../dialogue/agent/booking-walk.js';
import type { BookingDesk } from '../dialogue/agent/booking-desk.js';
import { tablesOf } from '../core/db/schema.js';
import { callFrom } from '../test/booking/fixtures.js';
import { giveNumber } from '../test/caller-texts/helpers.js';
import { startStripeDouble } from '../test/doubles/stripe/server.js';
import { activeCustomer } from '../test/helpers/accounts.js';
import { startTestServer } from '../test/helpers/server.js';
import { percentile, report } from './lib/report.js';

const BOOKINGS = Number(process.env.BENCH_DEPOSIT_BOOKINGS ?? 60);
const KEY = 'rk_test_bench000000000000000000000001';
const engine = process.env.TEST_DATABASE === 'postgres' ? 'PostgreSQL' : 'SQLite';

const stripe = await startStripeDouble();
const server = await startTestServer({ env: { STRIPE_API_BASE: stripe.url } });
try {
  const db = server.database.db;
  const { bookingServices, bookings } = tablesOf(db);
  const { user } = await activeCustomer(server, { businessName: 'Bench Plumbing' });
  await giveNumber(server, user.id, '+447700900051');
  const [plain] = await db.insert(bookingServices).values({ userId: user.id, name: 'survey', durationMinutes: 30 }).returning();
  const [held] = await db.insert(bookingServices).values({ userId: user.id, name: 'boiler service', durationMinutes: 30, depositKind: 'fixed', depositPence: 2000, depositHoldMinutes: 30 }).returning();
  const account = stripe.account({ key: KEY, name: 'Bench Plumbing Ltd', permissions: ['rak_checkout_session_write', 'rak_refund_write', 'rak_webhook_write'] });
  const { deposits } = server.services;
  await deposits.save(user.id, { secretKey: KEY, depositPolicy: 'Refunded if you cancel a day ahead.', refundOnCallerCancel: true });
  const tested = await deposits.test(user.id);
  if (!('ok' in tested) || !tested.ok) throw new Error(`Stripe not connected: ${JSON.stringify(tested)}`);

  let caller = 0;
  /** One booking as the agent makes it: the soonest time offered, booked for a new caller. */
  async function bookOne(serviceId: number): Promise<{ ms: number; id: number }> {
    const desk: BookingDesk = server.services.booking.desk(user.id);
    const offer = await desk.offer({ serviceId, wish: '' });
    if (offer.kind !== 'offered') throw new Error(`no offer: ${JSON.stringify(offer)}`);
    const number = `+4477009002${String(caller++ % 100).padStart(2, '0')}`;
    const callId = await callFrom(db, user.id, number);
    const t = performance.now();
    const done = await desk.book({ slotId: offer.slots[0]!.id, callId, callerName: 'Bench Caller', callerNumber: number });
    const ms = performance.now() - t;
    if (done.kind !== 'booked') throw new Error(`not booked: ${JSON.stringify(done)}`);
    return { ms, id: done.booking.id };
  }

  const plainMs: number[] = [];
  const heldMs: number[] = [];
  const heldIds: number[] = [];
  await bookOne(plain!.id);
  for (let i = 0; i < BOOKINGS; i++) {
    // Alternated, so a machine growing busier weighs on both alike.
    plainMs.push((await bookOne(plain!.id)).ms);
    const h = await bookOne(held!.id);
    heldMs.push(h.ms);
    heldIds.push(h.id);
  }

  // Each held booking paid: Stripe's event as the owner's endpoint receives it.
  const endpoint = account.webhookEndpoints()[0]!;
  const hookMs: number[] = [];
  for (const id of heldIds) {
    const [row] = await db.select().from(bookings).where(eq(bookings.id, id));
    const [event] = stripe.completeCheckout(row!.depositSessionId!).filter((e) => e.type === 'checkout.session.completed');
    const t = performance.now();
    const answer = await stripe.send(`${server.url}/api/stripe/webhooks/deposits/${user.id}`, event!, endpoint.secret!);
    hookMs.push(performance.now() - t);
    if (answer.status !== 200) throw new Error(`webhook ${answer.status}: ${answer.body}`);
  }
  const paid = (await db.select().from(bookings).where(eq(bookings.depositState, 'paid'))).length;

  const line = (label: string, ms: number[]) => `${label}: p50 ${percentile(ms, 50).toFixed(1)} ms, p95 ${percentile(ms, 95).toFixed(1)} ms`;
  console.log(`${engine}, ${BOOKINGS} bookings each, Stripe double on loopback`);
  console.log(line('  book a plain service (the claim)                ', plainMs));
  console.log(line('  book a deposit service (claim + pay link + text)', heldMs));
  console.log(`  the diary's bound: ${DIARY_BOUND_MS} ms`);
  console.log(line(`  paid webhook, POST → 200 (${paid} paid)          `, hookMs));
  report({ bench: 'deposits', measure: `agent books a plain service, ${engine}, p95`, value: `${percentile(plainMs, 95).toFixed(1)} ms` });
  report({ bench: 'deposits', measure: `agent books a deposit service (claim + Stripe double + text), ${engine}, p95`, value: `${percentile(heldMs, 95).toFixed(1)} ms`, budget: `< ${DIARY_BOUND_MS} ms with Stripe's own round trip` });
  report({ bench: 'deposits', measure: `paid webhook POST → 200, ${engine}, p95`, value: `${percentile(hookMs, 95).toFixed(1)} ms` });
} finally {
  await server.close();
  await stripe.close();
}
