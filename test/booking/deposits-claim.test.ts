// Issue 59, booking's side of deposits: a booking of a deposit service is claimed live as
// 'awaiting' in the claim's own transaction, so it blocks the slot for a second caller from its
// first moment, and the deposit desk is asked to start the hold; Stripe unreachable releases it
// (a request for the owner instead); a caller who cannot be texted the link (landline, STOP) gets
// no hold; a move carries the deposit over. On SQLite and PostgreSQL. The deposit desk here is a
// small recording one: the money side (core/payments/deposits) is tested on its own.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createDeskFactory } from '../../core/booking/agent-booking-adapter.js';
import { createOwnerBookingFactory } from '../../core/booking/owner-booking.js';
import type { BookingEvents } from '../../core/booking/diary.js';
import type { DatabaseHandle } from '../../core/db/client.js';
import { tablesOf, type BookingRow } from '../../core/db/schema.js';
import { DepositUnavailable, type DepositDesk } from '../../core/payments/parts.js';
import type { BookingDesk } from '../../dialogue/agent/booking-desk.js';
import { usePostgres } from '../helpers/use-postgres.js';
import { callFrom, ownerWithService, quiet, TEST_KEYS } from './fixtures.js';
import { twoCoreEngines } from './two-cores.js';

const postgres = usePostgres();
const engines = twoCoreEngines(postgres, 'deposit-');

// Tuesday 1 December 2026, 08:00 London: the first slot with 2 h notice is 10:00.
const NOW = new Date('2026-12-01T08:00:00Z');
const now = () => NOW;
const MOBILE = '+447700900101';
const OTHER_MOBILE = '+447700900102';
const LANDLINE = '+441632960123';

/** A deposit desk that records what booking asks of it; `refuse` makes startHold throw as Stripe down would. */
class RecordingDeposits implements DepositDesk {
  readonly holds: number[] = [];
  readonly cancels: Array<[number, string]> = [];
  constructor(private readonly opts: { connected?: boolean; refuse?: boolean } = {}) {}
  async connected(): Promise<boolean> {
    return this.opts.connected ?? true;
  }
  async startHold(bookingId: number): Promise<{ url: string; dueAt: Date; stands: boolean }> {
    this.holds.push(bookingId);
    if (this.opts.refuse) throw new DepositUnavailable('Stripe could not be reached');
    return { url: `https://checkout.stripe.test/pay/${bookingId}`, dueAt: new Date(NOW.getTime() + 30 * 60_000), stands: true };
  }
  async cancelled(bookingId: number, by: 'owner' | 'caller'): Promise<void> {
    this.cancels.push([bookingId, by]);
  }
}

/** The booked events (confirmation texts): a held booking's waits for its payment. */
const recordEvents = () => {
  const booked: number[] = [];
  const events: Partial<BookingEvents> = { booked: async (row) => void booked.push(row.id) };
  return { booked, events };
};

const deskOn = (core: DatabaseHandle, ownerId: number, deposits: DepositDesk | undefined, events?: Partial<BookingEvents>): BookingDesk =>
  createDeskFactory({ db: core.db, now, keys: TEST_KEYS, log: quiet, deposits, events })(ownerId);

/** An owner whose one service takes a fixed £20 deposit held for 45 minutes. */
async function depositOwner(core: DatabaseHandle) {
  const { user, service } = await ownerWithService(core.db);
  const { bookingServices } = tablesOf(core.db);
  await core.db.update(bookingServices).set({ pricePence: 8000, depositKind: 'fixed', depositPence: 2000, depositHoldMinutes: 45 }).where(eq(bookingServices.id, service.id));
  return { user, service };
}

const rowsOf = async (core: DatabaseHandle, userId: number): Promise<BookingRow[]> => {
  const { bookings } = tablesOf(core.db);
  return core.db.select().from(bookings).where(eq(bookings.userId, userId));
};

async function bookFirst(desk: BookingDesk, core: DatabaseHandle, userId: number, caller: string, signal?: AbortSignal) {
  const offer = await desk.offer({ wish: 'Wednesday morning' });
  if (offer.kind !== 'offered') throw new Error(offer.kind);
  const slot = offer.slots[0]!;
  const callId = await callFrom(core.db, userId, caller);
  return { slot, callId, result: await desk.book({ slotId: slot.id, callId, callerName: 'Kim', callerNumber: caller }, signal) };
}

describe.each(engines)('deposits on $name', (engine) => {
  it('claims a deposit booking as awaiting in the claim, starts the hold, holds the confirmation, and blocks the slot for a second caller', async () => {
    const [core] = await engine.open();
    try {
      const { user } = await depositOwner(core!);
      const deposits = new RecordingDeposits();
      const { booked, events } = recordEvents();
      const desk = deskOn(core!, user.id, deposits, events);
      const { slot, result } = await bookFirst(desk, core!, user.id, MOBILE);
      if (result.kind !== 'booked') throw new Error(result.kind);
      expect(result.booking.deposit).toEqual({ pence: 2000, holdMinutes: 45 });
      const [row] = await rowsOf(core!, user.id);
      expect(row).toMatchObject({ id: result.booking.id, status: 'booked', depositState: 'awaiting', depositPence: 2000 });
      expect(row!.depositDueAt?.toISOString()).toBe(new Date(NOW.getTime() + 45 * 60_000).toISOString());
      expect(deposits.holds).toEqual([row!.id]);
      // Its confirmation is the deposit side's to send, once paid.
      expect(booked).toEqual([]);

      // A second caller is not offered the held time, and an old offer of it is taken.
      const second = deskOn(core!, user.id, deposits, events);
      const offer = await second.offer({ wish: 'Wednesday morning' });
      if (offer.kind !== 'offered') throw new Error(offer.kind);
      expect(offer.slots.map((s) => s.start.getTime())).not.toContain(slot.start.getTime());
      const callB = await callFrom(core!.db, user.id, OTHER_MOBILE);
      const again = await second.book({ slotId: slot.id, callId: callB, callerName: 'Bob', callerNumber: OTHER_MOBILE });
      expect(again.kind).toBe('taken');
      expect(await rowsOf(core!, user.id)).toHaveLength(1);
    } finally {
      await core!.close();
    }
  });

  it('a claim whose asker already gave up (the agent\'s bound passed) is withdrawn before any pay link: no row, no hold, no confirmation', async () => {
    const [core] = await engine.open();
    try {
      const { user } = await depositOwner(core!);
      const deposits = new RecordingDeposits();
      const { booked, events } = recordEvents();
      const gaveUp = AbortSignal.abort(new Error('the diary is slower than its bound'));
      const { result } = await bookFirst(deskOn(core!, user.id, deposits, events), core!, user.id, MOBILE, gaveUp);
      expect(result).toEqual({ kind: 'unavailable', reason: 'the call stopped waiting for the booking' });
      expect(await rowsOf(core!, user.id)).toEqual([]);
      expect([deposits.holds, booked]).toEqual([[], []]);
    } finally {
      await core!.close();
    }
  });

  it('releases the slot when Stripe cannot make the link: no booking, a deposit request to pass to the owner', async () => {
    const [core] = await engine.open();
    try {
      const { user } = await depositOwner(core!);
      const deposits = new RecordingDeposits({ refuse: true });
      const { booked, events } = recordEvents();
      const { slot, result } = await bookFirst(deskOn(core!, user.id, deposits, events), core!, user.id, MOBILE);
      expect(result).toEqual({ kind: 'deposit-request', why: 'deposit-unavailable', depositPence: 2000, reason: 'Stripe could not be reached' });
      expect(deposits.holds).toHaveLength(1);
      expect(booked).toEqual([]);
      expect(await rowsOf(core!, user.id)).toEqual([]);
      // The time is free again for the next caller.
      const offer = await deskOn(core!, user.id, new RecordingDeposits(), events).offer({ wish: 'Wednesday morning' });
      if (offer.kind !== 'offered') throw new Error(offer.kind);
      expect(offer.slots[0]!.start.getTime()).toBe(slot.start.getTime());
    } finally {
      await core!.close();
    }
  });

  it('a caller who cannot be texted the link (a landline, or STOP) gets no hold and no booking', async () => {
    const [core] = await engine.open();
    try {
      const { user } = await depositOwner(core!);
      const deposits = new RecordingDeposits();
      const landline = await bookFirst(deskOn(core!, user.id, deposits), core!, user.id, LANDLINE);
      expect(landline.result).toMatchObject({ kind: 'deposit-request', why: 'deposit-untextable', depositPence: 2000 });
      const { callerOptOuts } = tablesOf(core!.db);
      await core!.db.insert(callerOptOuts).values({ userId: user.id, callerNumber: OTHER_MOBILE, word: 'STOP', optedOutAt: NOW });
      const stopped = await bookFirst(deskOn(core!, user.id, deposits), core!, user.id, OTHER_MOBILE);
      expect(stopped.result).toMatchObject({ kind: 'deposit-request', why: 'deposit-untextable', depositPence: 2000 });
      expect(deposits.holds).toEqual([]);
      expect(await rowsOf(core!, user.id)).toEqual([]);
    } finally {
      await core!.close();
    }
  });

  it('a move keeps the deposit: the new booking carries its state, amount, due time and Checkout Session', async () => {
    const [core] = await engine.open();
    try {
      const { user } = await depositOwner(core!);
      const deposits = new RecordingDeposits();
      const desk = deskOn(core!, user.id, deposits);
      const { result, callId } = await bookFirst(desk, core!, user.id, MOBILE);
      if (result.kind !== 'booked') throw new Error(result.kind);
      // As the deposit side records the Checkout Session it made.
      const { bookings } = tablesOf(core!.db);
      await core!.db.update(bookings).set({ depositSessionId: 'cs_test_1', depositUrl: 'https://checkout.stripe.test/pay/cs_test_1' }).where(eq(bookings.id, result.booking.id));
      const later = await desk.offer({ wish: 'Thursday afternoon' });
      if (later.kind !== 'offered') throw new Error(later.kind);
      const moved = await desk.move(result.booking.id, { slotId: later.slots[0]!.id, callId, callerName: 'Kim', callerNumber: MOBILE });
      if (moved.kind !== 'booked') throw new Error(moved.kind);
      const rows = await rowsOf(core!, user.id);
      const old = rows.find((r) => r.id === result.booking.id)!;
      const now = rows.find((r) => r.id === moved.booking.id)!;
      expect(old).toMatchObject({ status: 'cancelled', cancelledBy: 'moved', depositSessionId: null });
      expect(now).toMatchObject({ status: 'booked', depositState: 'awaiting', depositPence: 2000, depositSessionId: 'cs_test_1', depositUrl: 'https://checkout.stripe.test/pay/cs_test_1' });
      expect(now.depositDueAt?.getTime()).toBe(old.depositDueAt?.getTime());
      // No second hold: the link the caller has still pays for it.
      expect(deposits.holds).toEqual([result.booking.id]);
    } finally {
      await core!.close();
    }
  });

  it('an owner booking from Call Details holds the deposit too, unless they tick "no deposit needed"', async () => {
    const [core] = await engine.open();
    try {
      const { user, service } = await depositOwner(core!);
      const deposits = new RecordingDeposits();
      const { booked, events } = recordEvents();
      const owner = createOwnerBookingFactory({ db: core!.db, now, keys: TEST_KEYS, log: quiet, deposits, events })(user.id);
      const held = await owner.bookForCall({ callId: await callFrom(core!.db, user.id, MOBILE), serviceId: service.id, start: Date.parse('2026-12-02T10:00:00Z'), callerName: 'Kim', callerNumber: MOBILE });
      if (held.kind !== 'booked') throw new Error(held.kind);
      expect(held.row).toMatchObject({ depositState: 'awaiting', depositPence: 2000 });
      expect(deposits.holds).toEqual([held.row.id]);
      const skipped = await owner.bookForCall({ callId: await callFrom(core!.db, user.id, OTHER_MOBILE), serviceId: service.id, start: Date.parse('2026-12-02T11:00:00Z'), callerName: 'Bob', callerNumber: OTHER_MOBILE, skipDeposit: true });
      if (skipped.kind !== 'booked') throw new Error(skipped.kind);
      expect(skipped.row).toMatchObject({ depositState: null, depositPence: null });
      expect(deposits.holds).toEqual([held.row.id]);
      // The booking without a deposit is confirmed at once, as today.
      expect(booked).toEqual([skipped.row.id]);
      const landline = await owner.bookForCall({ callId: await callFrom(core!.db, user.id, LANDLINE), serviceId: service.id, start: Date.parse('2026-12-02T12:00:00Z'), callerName: 'Lee', callerNumber: LANDLINE });
      expect(landline).toMatchObject({ kind: 'deposit-request', why: 'untextable', pence: 2000 });
    } finally {
      await core!.close();
    }
  });

  it('without a deposit desk, or with Stripe not connected, a deposit service books as it always did', async () => {
    const [core] = await engine.open();
    try {
      const { user } = await depositOwner(core!);
      for (const deposits of [undefined, new RecordingDeposits({ connected: false })]) {
        const { booked, events } = recordEvents();
        const { result } = await bookFirst(deskOn(core!, user.id, deposits, events), core!, user.id, LANDLINE);
        if (result.kind !== 'booked') throw new Error(result.kind);
        expect(result.booking.deposit).toBeUndefined();
        expect(booked).toEqual([result.booking.id]);
        const row = (await rowsOf(core!, user.id)).find((r) => r.id === result.booking.id)!;
        expect([row.depositState, row.depositPence, row.depositDueAt]).toEqual([null, null, null]);
      }
    } finally {
      await core!.close();
    }
  });
});
