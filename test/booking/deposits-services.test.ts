// Issue 59: a service's deposit settings through the owner's API (price, none / fixed / full, the
// hold), each mistake a 400 in a sentence the console shows, a deposit only once the owner's
// Stripe account is connected; Call Details' booking of a caller who cannot be texted the link is
// refused in words, and "no deposit needed" books them; the owner's request note names the time,
// the service and the deposit. The deposit desk is a small in-test one (core/payments is apart).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { requestText } from '../../core/booking/service.js';
import type { DepositDesk } from '../../core/payments/parts.js';
import { activeCustomer } from '../helpers/accounts.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { giveNumber } from '../caller-texts/helpers.js';
import { callFrom } from './fixtures.js';

const DID = '+447700900070';
let server: TestServer | undefined;
/** The desk a test sets; none: the box's own deposit service (nothing connected). */
let desk: DepositDesk | undefined;

// The server starts in the hook (60 s), not inside a test's own 30 s, which the first test of the
// file used up on a loaded machine; booking asks the desk the test has set through this forwarder.
const forwarding: DepositDesk = {
  connected: (u) => (desk ?? server!.services.deposits).connected(u),
  startHold: (id, signal) => (desk ?? server!.services.deposits).startHold(id, signal),
  cancelled: (id, by) => (desk ?? server!.services.deposits).cancelled(id, by),
};

beforeEach(async () => {
  server = await startTestServer({ booking: { pollMs: 50, deposits: forwarding } });
  server.clock.offsetMs = Date.parse('2026-12-01T07:50:00Z') - Date.now();
  server.services.booking.start();
}, 60_000);

afterEach(async () => {
  await server?.services.booking.stop();
  await server?.close();
  server = undefined;
  desk = undefined;
});

const depositDesk = (connected: boolean): DepositDesk & { holds: number[]; cancels: Array<[number, string]> } => {
  const holds: number[] = [];
  const cancels: Array<[number, string]> = [];
  return {
    holds, cancels,
    connected: async () => connected,
    startHold: async (id) => {
      holds.push(id);
      return { url: `https://checkout.stripe.test/pay/${id}`, dueAt: new Date(Date.now() + 30 * 60_000), stands: true };
    },
    cancelled: async (id, by) => void cancels.push([id, by]),
  };
};

/** An owner with a number, booking through `deposits` (none: the box's own desk, not connected). */
async function start(deposits?: DepositDesk, did = DID) {
  desk = deposits;
  const { client, user } = await activeCustomer(server!, { businessName: 'Hale Plumbing' });
  await giveNumber(server!, user.id, did);
  return { client, userId: user.id };
}

const CONNECT = 'Connect your Stripe account under Payments first: deposits are paid to it.';
const boiler = { name: 'Boiler service', durationMinutes: 60 };

describe('services\' deposit settings', () => {
  it('refuses a deposit until Stripe is connected', async () => {
    for (const [deposits, did] of [[undefined, DID], [depositDesk(false), '+447700900072']] as const) {
      const { client } = await start(deposits, did);
      const r = await client.post('/api/user/booking/services', { ...boiler, depositKind: 'fixed', depositPence: 2000 });
      expect([r.status, r.body.message]).toEqual([400, CONNECT]);
      // No deposit is always fine, and says so.
      const plain = await client.post('/api/user/booking/services', { ...boiler, pricePence: 8000 });
      expect(plain.body).toMatchObject({ pricePence: 8000, depositKind: 'none', depositPence: null, depositHoldMinutes: 30 });
    }
  });

  it('says what is wrong with each deposit, and keeps a right one', async () => {
    const { client } = await start(depositDesk(true));
    const message = async (body: Record<string, unknown>) => {
      const r = await client.post('/api/user/booking/services', { ...boiler, ...body });
      return [r.status, r.body.message];
    };
    expect(await message({ depositKind: 'full' })).toEqual([400, 'A deposit of the full price needs the service\'s price.']);
    expect(await message({ depositKind: 'fixed' })).toEqual([400, 'A fixed deposit needs an amount from £0.30 to £1,000.']);
    expect(await message({ depositKind: 'fixed', depositPence: 10 })).toEqual([400, 'A fixed deposit is an amount from £0.30 to £1,000.']);
    expect(await message({ depositKind: 'fixed', depositPence: 5000, pricePence: 4000 })).toEqual([400, 'The deposit (£50) cannot be more than the service\'s price (£40).']);
    expect(await message({ depositKind: 'full', pricePence: 200_000 })).toEqual([400, 'A deposit of the full price must be from £0.30 to £1,000; this price is £2,000.']);
    expect(await message({ depositKind: 'fixed', depositPence: 2000, depositHoldMinutes: 10 })).toEqual([400, 'The time a deposit holds the slot is a whole number of minutes from 30 to 1440 (24 hours).']);
    expect(await message({ depositKind: 'half' })).toEqual([400, 'The deposit is "none", "fixed" or "full".']);

    const fixed = await client.post('/api/user/booking/services', { ...boiler, pricePence: 8000, depositKind: 'fixed', depositPence: 2000, depositHoldMinutes: 60 });
    expect(fixed.status).toBe(201);
    expect(fixed.body).toMatchObject({ pricePence: 8000, depositKind: 'fixed', depositPence: 2000, depositHoldMinutes: 60 });
    const full = await client.request('PUT', `/api/user/booking/services/${fixed.body.id}`, { ...boiler, pricePence: 8000, depositKind: 'full' });
    expect(full.body).toMatchObject({ pricePence: 8000, depositKind: 'full', depositPence: null, depositHoldMinutes: 30 });
    expect((await client.get('/api/user/booking/services')).body.services).toEqual([full.body]);
  });

  it('Call Details: a caller who cannot be texted the link is refused in words; "no deposit needed" books them', async () => {
    const deposits = depositDesk(true);
    const { client, userId } = await start(deposits);
    const service = (await client.post('/api/user/booking/services', { ...boiler, depositKind: 'fixed', depositPence: 2000 })).body as { id: number };
    const callId = await callFrom(server!.database.db, userId, '+441632960123');
    const refused = await client.post(`/api/call-logs/${callId}/booking`, { serviceId: service.id, start: '2026-12-01T10:30:00Z', callerName: 'Lee' });
    expect([refused.status, refused.body.message]).toEqual([400, 'This service needs a £20 deposit, and this caller cannot be texted the link to pay it (not a UK mobile, or they replied STOP). Tick "no deposit needed" to book them anyway.']);
    const made = await client.post(`/api/call-logs/${callId}/booking`, { serviceId: service.id, start: '2026-12-01T10:30:00Z', callerName: 'Lee', skipDeposit: true });
    expect(made.status).toBe(201);
    expect(deposits.holds).toEqual([]);
  });

  it('a held booking the owner cancels, or its caller by replying C, is handed to the deposit side (refund, keep or expire); one without a deposit is not', async () => {
    const deposits = depositDesk(true);
    const { client, userId } = await start(deposits);
    const service = (await client.post('/api/user/booking/services', { ...boiler, depositKind: 'fixed', depositPence: 2000 })).body as { id: number };
    const held = await client.post(`/api/call-logs/${await callFrom(server!.database.db, userId, '+447700900402')}/booking`, { serviceId: service.id, start: '2026-12-01T10:30:00Z', callerName: 'Kim' });
    const plain = await client.post(`/api/call-logs/${await callFrom(server!.database.db, userId, '+447700900403')}/booking`, { serviceId: service.id, start: '2026-12-01T12:00:00Z', callerName: 'Sam', skipDeposit: true });
    expect(deposits.holds).toEqual([held.body.id]);
    expect((await client.post(`/api/user/bookings/${plain.body.id}/cancel`)).status).toBe(200);
    expect((await client.post(`/api/user/bookings/${held.body.id}/cancel`)).status).toBe(200);
    expect(deposits.cancels).toEqual([[held.body.id, 'owner']]);
    // The caller's own way out (the confirmation's "Reply C to cancel"): handed over as the caller's, so the owner's policy decides.
    const theirs = await client.post(`/api/call-logs/${await callFrom(server!.database.db, userId, '+447700900404')}/booking`, { serviceId: service.id, start: '2026-12-01T14:00:00Z', callerName: 'Jo' });
    expect(deposits.holds).toEqual([held.body.id, theirs.body.id]);
    expect(await server!.services.booking.cancelByReply(userId, '+447700900404', 'C')).toBe(true);
    expect(deposits.cancels).toEqual([[held.body.id, 'owner'], [theirs.body.id, 'caller']]);
  });
});

describe('the owner\'s note of a deposit request', () => {
  it('names the time, the service and the deposit, and why it was not booked', () => {
    const base = { callId: 4, callerName: 'Kim', callerNumber: '+441632960123', wish: 'Boiler service, Wednesday the 2nd of December at ten o\'clock (asked: "Wednesday")', depositPence: 2000 };
    expect(requestText({ ...base, why: 'deposit-untextable' })).toBe('Booking request from Kim (+441632960123): Boiler service, Wednesday the 2nd of December at ten o\'clock (asked: "Wednesday"). Not booked: it needs a £20 deposit and this caller cannot be texted the link to pay it (not a UK mobile, withheld, or they replied STOP). Please call them to arrange it.');
    expect(requestText({ ...base, why: 'deposit-unavailable', reason: 'Stripe could not be reached' })).toBe('Booking request from Kim (+441632960123): Boiler service, Wednesday the 2nd of December at ten o\'clock (asked: "Wednesday"). Not booked: it needs a £20 deposit and the pay link could not be made (Stripe could not be reached). Please call them to confirm it.');
    // Today's requests read as before.
    expect(requestText({ ...base, wish: 'Tuesday', why: 'no-suitable-time' })).toBe('Booking request from Kim (+441632960123): "Tuesday". Not booked: no offered time suited. Please call them to agree a time.');
  });
});
