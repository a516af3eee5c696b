// Issue 59, a regression seen on PostgreSQL: the agent's booking bound (DIARY_BOUND_MS) ran out
// while the deposit desk was making the pay link at Stripe. The caller was told the business
// would confirm (a booking request), yet the claim stayed held and the pay-link text still went:
// a link for a booking the agent said was not made. Now a claim whose walk gave up is released
// and its session expired at Stripe, and no link is texted. The real walk, the real diary and
// deposit desk on the test database (SQLite or PostgreSQL), Stripe's create held on the double.
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { BookingWalk } from '../../dialogue/agent/booking-walk.js';
import { BOOKING_LINES } from '../../dialogue/language/booking-lines.js';
import { startStripeDouble, type StripeDouble } from '../doubles/stripe/server.js';
import { activeCustomer } from '../helpers/accounts.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { bookings, bookingServices } from '../helpers/tables.js';
import { waitUntil } from '../helpers/wait.js';
import { giveNumber, outboxTo } from '../caller-texts/helpers.js';
import { callFrom } from './fixtures.js';

const DID = '+447700900071';
const CALLER = '+447700900303';
const KEY = 'rk_test_hale00000000000000000000000002';

let server: TestServer | undefined;
let stripe: StripeDouble | undefined;
afterEach(async () => {
  await server?.close();
  await stripe?.close();
  server = undefined;
  stripe = undefined;
});

describe('the agent\'s bound passes while Stripe makes the pay link', () => {
  it('the caller hears the request line, the hold is released and its session expired, and no link is texted', async () => {
    stripe = await startStripeDouble({ now: () => server!.services.now() });
    server = await startTestServer({ env: { STRIPE_API_BASE: stripe.url } });
    // Monday 30 November 2026, 08:00 London: Tuesday's times are free (default hours Mon–Fri 09:00–17:30).
    server.clock.offsetMs = Date.parse('2026-11-30T08:00:00Z') - Date.now();
    const { user } = await activeCustomer(server, { businessName: 'Hale Plumbing' });
    await giveNumber(server, user.id, DID);
    const db = server.database.db;
    await db.insert(bookingServices).values({ userId: user.id, name: 'boiler service', durationMinutes: 60, depositKind: 'fixed', depositPence: 2000 });
    const account = stripe.account({ key: KEY, name: 'Hale Plumbing Ltd', permissions: ['rak_checkout_session_write', 'rak_refund_write', 'rak_webhook_write'] });
    await server.services.deposits.save(user.id, { secretKey: KEY, depositPolicy: null, refundOnCallerCancel: true });
    expect(await server.services.deposits.test(user.id)).toMatchObject({ ok: true });

    const desk = server.services.booking.desk(user.id);
    // A bound past DIARY_BOUND_MS, so even a loaded machine's claim reaches Stripe inside it; Stripe is then held until it has passed.
    const walk = new BookingWalk({ desk, services: await desk.services(), callId: await callFrom(db, user.id, CALLER), callerId: CALLER, boundMs: 4000 });
    expect((await walk.turn(undefined, 'Can I book a boiler service on Tuesday?')).say.join(' ')).toMatch(/ten o'clock/);
    await walk.turn({ choice: 's1' }, 'Ten please.');
    expect(walk.at).toBe('name');
    await walk.turn({ name: 'Sam Jones' }, 'Sam Jones.');
    expect(walk.at).toBe('confirm');

    const stalled = stripe.stall('POST', '/v1/checkout/sessions');
    const yes = await walk.turn({ yes: true }, 'Yes please.');
    expect(yes).toEqual({ say: [BOOKING_LINES.request, BOOKING_LINES.requestDetails], ended: 'request', takeMessage: true });
    // The desk asked Stripe before the bound passed; only now does Stripe answer.
    const create = stripe.requests.find((r) => r.path === '/v1/checkout/sessions' && r.idempotencyKey?.startsWith('deposit-checkout:'));
    expect(create).toBeDefined();
    stalled.release();

    const [row] = await waitUntil(async () => {
      const rows = await db.select().from(bookings).where(eq(bookings.userId, user.id));
      if (rows.some((b) => b.depositState === 'awaiting')) throw new Error('the hold is still awaiting its deposit');
      return rows;
    }, 30_000, 50);
    // Released: the slot free again, nothing owed; its session expired at Stripe, so it can never be paid.
    expect(row).toMatchObject({ status: 'cancelled', cancelledBy: 'unpaid', depositState: 'expired' });
    expect(account.sessions().map((s) => [s.id, s.status])).toEqual([[row!.depositSessionId, 'expired']]);
    expect(outboxTo(server, CALLER)).toEqual([]);
    const again = await desk.offer({ wish: 'Tuesday' });
    expect(again.kind === 'offered' && again.slots[0]!.start.toISOString()).toBe('2026-12-01T09:00:00.000Z');
    expect(stripe.violations).toEqual([]);
  });
});
