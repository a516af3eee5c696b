// Issue 59 audit: the agent's bound passed while the pay-link text was being sent, the text went
// out and the hold was released anyway: the caller held a dead link. One rule now (DepositDesk.
// startHold): the bound decides just before the text is handed over; once it is, the hold stands.
// The seam: a text gateway that holds the pay-link text until the test lets it go, after the
// walk's bound has passed. The real walk, diary and deposit desk; Stripe is the double.
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import type { MessageGateway, OutgoingMessage } from '../../../core/notify/gateway.js';
import type { BookingDesk } from '../../../dialogue/agent/booking-desk.js';
import { BookingWalk } from '../../../dialogue/agent/booking-walk.js';
import { BOOKING_LINES } from '../../../dialogue/language/booking-lines.js';
import { startStripeDouble, type StripeDouble } from '../../doubles/stripe/server.js';
import { activeCustomer } from '../../helpers/accounts.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { bookings, bookingServices } from '../../helpers/tables.js';
import { giveNumber } from '../../caller-texts/helpers.js';
import { callFrom } from '../../booking/fixtures.js';

const DID = '+447700900073';
const CALLER = '+447700900305';
const KEY = 'rk_test_hale00000000000000000000000003';

/** Records each text; the first pay-link text waits until `release()`. */
function heldGateway() {
  const sent: OutgoingMessage[] = [];
  let letGo!: () => void;
  const gate = new Promise<void>((resolve) => (letGo = resolve));
  let arrived!: () => void;
  const reached = new Promise<void>((resolve) => (arrived = resolve));
  const gateway: MessageGateway = {
    name: 'held',
    async send(msg) {
      if (msg.body.includes('checkout.stripe')) {
        arrived();
        await gate;
      }
      sent.push(msg);
      return { providerId: `held-${sent.length}` };
    },
    reconcile: async () => 'unknown',
  };
  return { gateway, sent, reached, release: () => letGo() };
}

let server: TestServer | undefined;
let stripe: StripeDouble | undefined;
afterEach(async () => {
  await server?.close();
  await stripe?.close();
  server = undefined;
  stripe = undefined;
});

describe('the agent\'s bound passes while the pay-link text is being sent', () => {
  it('the text goes and the hold stands: the caller\'s link is never a dead one', async () => {
    const held = heldGateway();
    stripe = await startStripeDouble({ now: () => server!.services.now() });
    server = await startTestServer({ env: { STRIPE_API_BASE: stripe.url }, callerTexts: { gateway: held.gateway } });
    // Monday 30 November 2026, 08:00 London: Tuesday's times are free.
    server.clock.offsetMs = Date.parse('2026-11-30T08:00:00Z') - Date.now();
    const { user } = await activeCustomer(server, { businessName: 'Hale Plumbing' });
    await giveNumber(server, user.id, DID);
    const db = server.database.db;
    await db.insert(bookingServices).values({ userId: user.id, name: 'boiler service', durationMinutes: 60, depositKind: 'fixed', depositPence: 2000 });
    const account = stripe.account({ key: KEY, name: 'Hale Plumbing Ltd', permissions: ['rak_checkout_session_write', 'rak_refund_write', 'rak_webhook_write'] });
    await server.services.deposits.save(user.id, { secretKey: KEY, depositPolicy: null, refundOnCallerCancel: true });
    expect(await server.services.deposits.test(user.id)).toMatchObject({ ok: true });

    const desk = server.services.booking.desk(user.id);
    // The claim itself, which runs on after the walk has answered: the test waits on it, not on time.
    const claims: Array<Promise<unknown>> = [];
    const watched: BookingDesk = Object.create(desk, {
      book: { value: (req: Parameters<BookingDesk['book']>[0], signal?: AbortSignal) => {
        const claim = desk.book(req, signal);
        claims.push(claim);
        return claim;
      } },
    }) as BookingDesk;
    // A bound long enough that a loaded machine reaches the text inside it; the text is then held until the bound has passed.
    const walk = new BookingWalk({ desk: watched, services: await desk.services(), callId: await callFrom(db, user.id, CALLER), callerId: CALLER, boundMs: 4000 });
    expect((await walk.turn(undefined, 'Can I book a boiler service on Tuesday?')).say.join(' ')).toMatch(/ten o'clock/);
    await walk.turn({ choice: 's1' }, 'Ten please.');
    await walk.turn({ name: 'Sam Jones' }, 'Sam Jones.');
    expect(walk.at).toBe('confirm');

    const yes = walk.turn({ yes: true }, 'Yes please.');
    // The text reaches the gateway inside the bound (were the bound to pass first, no text would go: the other half of the rule).
    expect(await Promise.race([held.reached.then(() => 'text held'), yes.then(() => 'walk answered first')])).toBe('text held');
    // The bound passes with the text in the gateway's hands: the walk answers without the booking.
    expect(await yes).toEqual({ say: [BOOKING_LINES.request, BOOKING_LINES.requestDetails], ended: 'request', takeMessage: true });
    held.release();

    expect(claims).toHaveLength(1);
    await claims[0];
    const [after] = await db.select().from(bookings).where(eq(bookings.userId, user.id));
    expect(after).toMatchObject({ status: 'booked', depositState: 'awaiting' });
    const link = held.sent.filter((m) => m.to === CALLER);
    expect(link).toHaveLength(1);
    expect(link[0]!.body).toContain(after!.depositUrl!);
    expect(account.sessions().map((s) => [s.id, s.status])).toEqual([[after!.depositSessionId, 'open']]);
    // The slot stays held for this caller: another caller is not offered it.
    const again = await desk.offer({ wish: 'Tuesday' });
    if (again.kind !== 'offered') throw new Error(`expected other times offered, got ${again.kind}`);
    expect(again.slots.map((s) => s.start.toISOString())).not.toContain(after!.startAt.toISOString());
    expect(stripe.violations).toEqual([]);
  }, 90_000);
});
