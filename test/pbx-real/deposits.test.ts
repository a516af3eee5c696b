// Issue 59, deposits on the real PBX: "an agent call books a service with a deposit → the link
// text in the outbox, the slot held (another caller is offered other times), the webhook
// checkout.session.completed → confirmed and texted once; the hold expiring on a fake clock →
// released and texted; the same webhook twice and out of order → one confirmation."
// A real Asterisk and SIPp callers speaking through espeak-ng, the Ollama double playing the model
// (test/doubles/ollama/booking-replier.ts), the REAL diary and deposit desk on the harness's
// database (SQLite, or PostgreSQL under TEST_DATABASE=postgres), the owner's Stripe account on the
// Stripe double (test/doubles/stripe), connected and tested as the console does it. Two calls:
// the first books ten o'clock and is then paid; the second is offered the times after it, books
// eleven, and its hold runs out.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tablesOf } from '../../core/db/schema.js';
import { PAYMENT_ROUTES } from '../../contract/payments.js';
import type { OfferedSlot } from '../../dialogue/agent/booking-desk.js';
import { bookingSpeech } from '../../dialogue/language/booking-lines.js';
import { agentGreeting } from '../../dialogue/spoken/agent-lines.js';
import { BOOKING_LINES, offerTimes, readBack } from '../../dialogue/language/booking-lines.js';
import { shortWhen } from '../../dialogue/language/dates.js';
import { bookingReplier } from '../doubles/ollama/booking-replier.js';
import { spokenDate, TEN_TO_FOUR_DAILY } from './booking-days.js';
import { startStripeDouble, type StripeDouble } from '../doubles/stripe/server.js';
import { outboxTo } from '../caller-texts/helpers.js';
import { heldUntil } from '../../core/payments/deposits/texts.js';
import { waitUntil } from '../helpers/wait.js';
import { askAgent, hearsAgent } from './agent-caller.js';
import { realPbxAvailability, startRealPbx, type RealPbx } from './harness.js';

const real = realPbxAvailability();
const QUIET_MS = 1500;
const DAY_MS = 86_400_000;
/** UK mobiles (Ofcom's drama range), so the pay link can be texted. */
const FIRST = '+447700900111';
const SECOND = '+447700900222';
const KEY = 'rk_test_hale00000000000000000000000001';
const POLICY = 'Deposits are refunded if you cancel 24 hours ahead.';

describe.skipIf(!real.ok)('deposits on a real Asterisk: the agent holds a slot for its deposit, Stripe\'s events confirm or the hold runs out', { timeout: 400_000 }, () => {
  let h: RealPbx;
  let stripe: StripeDouble;

  beforeAll(async () => {
    // The double's clock is the core's, so the hold's end on the test's fake clock is Stripe's too.
    stripe = await startStripeDouble({ now: () => h.server.services.now() });
    h = await startRealPbx({ agent: true, env: { AGENT_VOICEMAIL_AFTER_MS: '30000', STRIPE_API_BASE: stripe.url } });
    h.ollama.replier = bookingReplier('A caller booked a boiler service.');
  });
  afterAll(async () => {
    await h?.close();
    await stripe?.close();
  });

  it('two callers, two holds: the link texted, the held time offered to nobody else, one paid (once, whatever the events\' order), one released', async () => {
    const { did, userId } = await h.business({ businessName: 'Hale Plumbing', aiMode: 'agent', knowledgeBase: 'Q: Where are you?\nA: In Leeds.' });
    const db = h.server.database.db;
    const { bookingRules, bookingServices, bookings } = tablesOf(db);
    await db.insert(bookingServices).values({ userId, name: 'boiler service', durationMinutes: 60, bufferMinutes: 0, depositKind: 'fixed', depositPence: 2000, depositHoldMinutes: 30 });
    await db.insert(bookingRules).values({ userId, hours: TEN_TO_FOUR_DAILY, noticeMinutes: 120, horizonDays: 14, dailyCap: null, updatedAt: new Date() });
    const deposits = h.server.services.deposits;
    const account = stripe.account({ key: KEY, name: 'Hale Plumbing Ltd', permissions: ['rak_checkout_session_write', 'rak_refund_write', 'rak_webhook_write'] });
    await deposits.save(userId, { secretKey: KEY, depositPolicy: POLICY, refundOnCallerCancel: true });
    expect(await deposits.test(userId)).toMatchObject({ ok: true, message: 'Connected to your Stripe account (test mode).' });

    // A day whose first time is ten o'clock.
    const preview = h.server.services.booking.desk(userId, { preview: true });
    let wish = '';
    let slots: OfferedSlot[] = [];
    for (let ahead = 3; ahead < 12 && !slots.length; ahead++) {
      wish = `I would like to book a boiler service on ${spokenDate(new Date(Date.now() + ahead * DAY_MS))}.`;
      const offer = await preview.offer({ wish });
      if (offer.kind === 'offered' && offer.slots[0]!.spoken.endsWith(" at ten o'clock")) slots = offer.slots;
    }
    expect(slots[0]?.spoken).toMatch(/ at ten o'clock$/);
    const { deposit } = bookingSpeech('en');
    const held = `${deposit.held(2000, 30)} ${deposit.anythingElse}`;

    /** One caller's booking of `hour` ("Ten"), having heard `offered`; the row it left. */
    async function bookBy(from: string, offered: OfferedSlot[], hour: string) {
      const call = await h.call(did, from);
      await hearsAgent(h, call, 0, agentGreeting('Hale Plumbing'), QUIET_MS);
      const asked = await askAgent(h, call, wish);
      await hearsAgent(h, call, asked.endedAt, offerTimes(offered), QUIET_MS);
      const chose = await askAgent(h, call, `${hour} o'clock please.`);
      await hearsAgent(h, call, chose.endedAt, BOOKING_LINES.askName, QUIET_MS);
      const named = await askAgent(h, call, 'My name is Sam Jones.');
      const slot = offered.find((s) => s.spoken.endsWith(` at ${hour.toLowerCase()} o'clock`))!;
      await hearsAgent(h, call, named.endedAt, readBack(slot, 'Sam Jones', from), QUIET_MS);
      const yes = await askAgent(h, call, 'Yes please.');
      await hearsAgent(h, call, yes.endedAt, held, QUIET_MS);
      await call.hangUp();
      const row = (await db.select().from(bookings).where(eq(bookings.callerNumber, from)))[0]!;
      expect(row).toMatchObject({ userId, startAt: slot.start, status: 'booked', depositState: 'awaiting', depositPence: 2000 });
      return { row, slot };
    }
    // The text names the hold's end by the clock, or by its day when the 30 minutes run past
    // midnight (a run near midnight): as said when the hold began.
    const linkText = (b: { startAt: Date; depositDueAt: Date | null }) => {
      const until = heldUntil(b.depositDueAt!, new Date(b.depositDueAt!.getTime() - 30 * 60_000));
      return new RegExp(`^Hale Plumbing: your boiler service on ${shortWhen(b.startAt)} is held until ${until}\\. Pay the £20\\.00 deposit to confirm: (\\S+)$`);
    };

    const first = await bookBy(FIRST, slots, 'Ten');
    const firstTexts = () => outboxTo(h.server, FIRST).map((m) => m.body);
    expect(firstTexts()).toHaveLength(1);
    expect(firstTexts()[0]!.match(linkText(first.row))?.[1]).toBe(first.row.depositUrl);

    // The held ten o'clock is nobody else's: the next caller hears the times after it.
    const next = await preview.offer({ wish });
    if (next.kind !== 'offered') throw new Error(`expected free times, got ${next.kind}`);
    expect(next.slots[0]!.start.getTime()).toBe(first.slot.start.getTime() + 60 * 60_000);
    const second = await bookBy(SECOND, next.slots, 'Eleven');
    expect(outboxTo(h.server, SECOND).map((m) => m.body)).toEqual([expect.stringMatching(linkText(second.row))]);

    // The first caller pays. Stripe sends the completed event twice, and a stale expired one after it.
    const secret = account.webhookEndpoints()[0]!.secret!;
    const url = new URL(PAYMENT_ROUTES.depositsWebhook(userId), h.server.url).toString();
    const open = account.sessions().find((s) => s.id === first.row.depositSessionId)!;
    const staleExpired = stripe.event('checkout.session.expired', { ...structuredClone(open), status: 'expired' });
    const [completed] = stripe.completeCheckout(first.row.depositSessionId!);
    for (const e of [completed!, staleExpired, completed!]) expect((await stripe.send(url, e, secret)).status).toBe(200);
    const confirmation = `Hale Plumbing: thank you, your £20.00 deposit is paid and your boiler service on ${shortWhen(first.slot.start)} is confirmed. Reply C to cancel. ${POLICY}`;
    await waitUntil(async () => {
      if (firstTexts().length < 2) throw new Error('no confirmation yet');
    }, 30_000, 100);
    expect(firstTexts().slice(1)).toEqual([confirmation]);
    expect((await db.select().from(bookings).where(eq(bookings.id, first.row.id)))[0]).toMatchObject({ status: 'booked', depositState: 'paid' });

    // The second caller does not pay: past the hold's end the sweep expires the link at Stripe and releases the time.
    h.server.clock.offsetMs += 31 * 60_000;
    await deposits.sweep();
    expect((await db.select().from(bookings).where(eq(bookings.id, second.row.id)))[0]).toMatchObject({ status: 'cancelled', cancelledBy: 'unpaid', depositState: 'expired' });
    expect(account.sessions().find((s) => s.id === second.row.depositSessionId)?.status).toBe('expired');
    expect(outboxTo(h.server, SECOND).map((m) => m.body).slice(1)).toEqual([
      `Hale Plumbing: the deposit for your boiler service on ${shortWhen(second.slot.start)} was not paid in time, so the time has been released. Please call us to book again.`,
    ]);
    // The paid booking stands through the sweep; each deposit call carried the box's own key.
    expect((await db.select().from(bookings).where(eq(bookings.id, first.row.id)))[0]!.depositState).toBe('paid');
    expect(firstTexts()).toHaveLength(2);
    expect(stripe.violations).toEqual([]);
  });
});
