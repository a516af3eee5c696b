// Issue 41 item 4: never double-booked. A slot is claimed in the database before anything else;
// of two callers taking one slot at the same moment exactly one gets it and the other is offered
// the next free times, on SQLite and on PostgreSQL with two cores (two pools on one database).
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createDeskFactory } from '../../core/booking/agent-booking-adapter.js';
import { bounded, type CalendarRead } from '../../core/booking/calendars/calendar-gate.js';
import { isExclusionViolation } from '../../core/booking/store/claim.js';
import type { BookingDesk, OfferedSlot } from '../../dialogue/agent/booking-desk.js';
import { keysFromSecret } from '../../core/booking/calendars/keys.js';
import type { DatabaseHandle } from '../../core/db/client.js';
import { tablesOf } from '../../core/db/schema.js';
import { usePostgres } from '../helpers/use-postgres.js';
import { twoCoreEngines } from './two-cores.js';
import { callFrom, ownerWithService, quiet, TEST_KEYS } from './fixtures.js';

const postgres = usePostgres();

// Tuesday 1 December 2026, 08:00 London: the first slot with 2 h notice is 10:00.
const NOW = new Date('2026-12-01T08:00:00Z');
const now = () => NOW;

const engines = twoCoreEngines(postgres, 'book-');

const deskOn = (core: DatabaseHandle, ownerId: number, preview = false): BookingDesk =>
  createDeskFactory({ db: core.db, now, keys: TEST_KEYS, log: quiet })(ownerId, { preview });

/** A live booking row written straight to the table, past the claim: `row(start, end)`. */
const bookingRow = (userId: number, serviceId: number) => (start: string, end: string) => ({
  userId, serviceId, startAt: new Date(start), endAt: new Date(end), blockEndAt: new Date(end),
  callerName: 'X', callerNumber: '+447700900007', slotKey: `${serviceId}:${Date.parse(start)}`, callId: null,
});

describe.each(engines)('booking on $name', (engine) => {
  it('two callers taking one slot at the same moment on two cores: one booked, the other taken and offered the next free times', async () => {
    const cores = await engine.open();
    try {
      const [a, b] = cores as [DatabaseHandle, DatabaseHandle];
      const { user } = await ownerWithService(a.db);
      const taken: string[] = [];
      for (let round = 0; round < 8; round++) {
        const offerA = await deskOn(a, user.id).offer({ wish: 'tomorrow' });
        const offerB = await deskOn(b, user.id).offer({ wish: 'tomorrow' });
        if (offerA.kind !== 'offered' || offerB.kind !== 'offered') throw new Error(`expected offers, got ${offerA.kind}/${offerB.kind}`);
        // Both cores offer the same soonest slot, and the ids are the desk's (the same key on both).
        expect(offerB.slots[0]!.id).toBe(offerA.slots[0]!.id);
        const slot = offerA.slots[0]!;
        const [callA, callB] = [await callFrom(a.db, user.id, '+447700900001'), await callFrom(a.db, user.id, '+447700900002')];
        const [ra, rb] = await Promise.all([
          deskOn(a, user.id).book({ slotId: slot.id, callId: callA, callerName: 'Ann', callerNumber: '07700 900001' }),
          deskOn(b, user.id).book({ slotId: slot.id, callId: callB, callerName: 'Bob', callerNumber: '07700 900002' }),
        ]);
        expect([ra.kind, rb.kind].sort()).toEqual(['booked', 'taken']);
        const loser = ra.kind === 'taken' ? ra : rb;
        if (loser.kind !== 'taken') throw new Error('unreachable');
        expect(loser.next.length).toBeGreaterThan(0);
        expect(loser.next.map((s) => s.start.getTime())).not.toContain(slot.start.getTime());
        expect(loser.next[0]!.start.getTime()).toBeGreaterThan(slot.start.getTime());
        taken.push(slot.start.toISOString());
      }
      // Eight rounds, eight consecutive hours of Wednesday, one booking each.
      const { bookings } = tablesOf(a.db);
      const rows = await a.db.select().from(bookings).where(eq(bookings.userId, user.id));
      expect(rows.map((r) => r.startAt.toISOString()).sort()).toEqual(taken.sort());
      expect(taken[0]).toBe('2026-12-02T09:00:00.000Z');
    } finally {
      for (const core of cores) await core.close();
    }
  });

  it('a retried book from the same call and slot returns the same booking and writes one row', async () => {
    const [core] = await engine.open();
    try {
      const { user } = await ownerWithService(core!.db);
      const { bookings } = tablesOf(core!.db);
      const desk = deskOn(core!, user.id);
      const offer = await desk.offer({ wish: 'Thursday after two' });
      if (offer.kind !== 'offered') throw new Error(offer.kind);
      expect(offer.slots.map((s) => s.spoken)).toEqual(["Thursday the 3rd of December at two o'clock", "Thursday the 3rd of December at half past two", "Thursday the 3rd of December at three o'clock"]);
      const call = await callFrom(core!.db, user.id, '+447700900003');
      const req = { slotId: offer.slots[0]!.id, callId: call, callerName: 'Cat', callerNumber: '+447700900003' };
      const [first, again] = await Promise.all([desk.book(req), desk.book(req)]);
      const third = await desk.book(req);
      if (first.kind !== 'booked' || again.kind !== 'booked' || third.kind !== 'booked') throw new Error(`${first.kind}/${again.kind}/${third.kind}`);
      expect(new Set([first.booking.id, again.booking.id, third.booking.id]).size).toBe(1);
      expect(await core!.db.select().from(bookings).where(eq(bookings.userId, user.id))).toHaveLength(1);
      expect(first.booking.spoken).toBe("Thursday the 3rd of December at two o'clock");
      // The caller who rings again finds it by their number, and can cancel it: the slot is free again.
      expect((await desk.findByCaller('07700 900003')).map((b) => b.id)).toEqual([first.booking.id]);
      expect((await desk.cancelByCaller(first.booking.id, '+447700900004'))).toBeNull();
      expect((await desk.cancelByCaller(first.booking.id, '07700900003'))?.status).toBe('cancelled');
      const reoffer = await desk.offer({ wish: 'Thursday after two' });
      expect(reoffer.kind === 'offered' && reoffer.slots[0]!.id).toBe(offer.slots[0]!.id);
    } finally {
      await core!.close();
    }
  });

  it('refuses slot ids the desk did not issue for this owner, writing nothing', async () => {
    const [core] = await engine.open();
    try {
      const { user } = await ownerWithService(core!.db);
      const { bookings } = tablesOf(core!.db);
      const other = await ownerWithService(core!.db);
      const offer = await deskOn(core!, other.user.id).offer({ wish: '' });
      if (offer.kind !== 'offered') throw new Error(offer.kind);
      const slot: OfferedSlot = offer.slots[0]!;
      const call = await callFrom(core!.db, user.id, '+447700900005');
      const req = { callId: call, callerName: 'Dan', callerNumber: '+447700900005' };
      // Another owner's slot, a model's invention, one altered by a character, another box's key.
      const foreignKey = createDeskFactory({ db: core!.db, now, keys: keysFromSecret('another box'), log: quiet })(user.id);
      const mine = await deskOn(core!, user.id).offer({ wish: '' });
      if (mine.kind !== 'offered') throw new Error(mine.kind);
      const [body, sig] = mine.slots[0]!.id.split('.') as [string, string];
      const altered = `${body}.${sig[0] === 'A' ? 'B' : 'A'}${sig.slice(1)}`;
      for (const slotId of [slot.id, 'slot-2026-12-02T10:00', altered]) {
        expect((await deskOn(core!, user.id).book({ ...req, slotId })).kind).toBe('unknown-slot');
      }
      expect((await foreignKey.book({ ...req, slotId: mine.slots[0]!.id })).kind).toBe('unknown-slot');
      expect(await core!.db.select().from(bookings).where(eq(bookings.userId, user.id))).toHaveLength(0);
    } finally {
      await core!.close();
    }
  });

  it('preview answers with the real availability and writes nothing', async () => {
    const [core] = await engine.open();
    try {
      const { user } = await ownerWithService(core!.db);
      const { bookings } = tablesOf(core!.db);
      const preview = deskOn(core!, user.id, true);
      const offer = await preview.offer({ wish: 'friday morning' });
      if (offer.kind !== 'offered') throw new Error(offer.kind);
      const result = await preview.book({ slotId: offer.slots[0]!.id, callId: 0, callerName: 'Eve', callerNumber: '+447700900006' });
      expect(result.kind === 'booked' && result.booking.spoken).toBe("Friday the 4th of December at nine o'clock");
      expect(await core!.db.select().from(bookings).where(eq(bookings.userId, user.id))).toHaveLength(0);
    } finally {
      await core!.close();
    }
  });

  it('two callers taking overlapping times that start apart, at the same moment on two cores: one booked, the other taken', async () => {
    const cores = await engine.open();
    try {
      const [a, b] = cores as [DatabaseHandle, DatabaseHandle];
      const { user } = await ownerWithService(a.db);
      const offer = await deskOn(a, user.id).offer({ wish: 'Thursday after two' });
      if (offer.kind !== 'offered') throw new Error(offer.kind);
      // An hour's service offered every half hour: 14:00 and 14:30 overlap, and their slot keys differ.
      const [two, halfPast] = offer.slots as [OfferedSlot, OfferedSlot];
      expect(halfPast.start.getTime() - two.start.getTime()).toBe(30 * 60_000);
      const [callA, callB] = [await callFrom(a.db, user.id, '+447700900011'), await callFrom(a.db, user.id, '+447700900012')];
      const [ra, rb] = await Promise.all([
        deskOn(a, user.id).book({ slotId: two.id, callId: callA, callerName: 'Ann', callerNumber: '+447700900011' }),
        deskOn(b, user.id).book({ slotId: halfPast.id, callId: callB, callerName: 'Bob', callerNumber: '+447700900012' }),
      ]);
      expect([ra.kind, rb.kind].sort()).toEqual(['booked', 'taken']);
      const { bookings } = tablesOf(a.db);
      expect(await a.db.select().from(bookings).where(eq(bookings.userId, user.id))).toHaveLength(1);
    } finally {
      for (const core of cores) await core.close();
    }
  });

  it('the database itself refuses a second live booking of the same time, whoever writes it', async () => {
    const [core] = await engine.open();
    try {
      const { user, service } = await ownerWithService(core!.db);
      const { bookings } = tablesOf(core!.db);
      const row = bookingRow(user.id, service.id);
      await core!.db.insert(bookings).values(row('2026-12-02T10:00:00Z', '2026-12-02T11:00:00Z'));
      await expect(core!.db.insert(bookings).values(row('2026-12-02T10:00:00Z', '2026-12-02T10:30:00Z'))).rejects.toThrow();
      // A cancelled booking no longer holds its time.
      await core!.db.update(bookings).set({ status: 'cancelled' }).where(eq(bookings.userId, user.id));
      await core!.db.insert(bookings).values(row('2026-12-02T10:00:00Z', '2026-12-02T11:00:00Z'));
    } finally {
      await core!.close();
    }
  });

  it('a calendar that does not answer within the bound makes offer and book answer unavailable, writing nothing', async () => {
    const [core] = await engine.open();
    try {
      const { user } = await ownerWithService(core!.db);
      const { bookings } = tablesOf(core!.db);
      const offered = await deskOn(core!, user.id).offer({ wish: '' });
      if (offered.kind !== 'offered') throw new Error(offered.kind);
      // A calendar server that never answers (and ignores its signal), its answer on the reader's bound; the bound is shortened so the suite stays quick.
      const hung = { busy: (_o: number, _f: number, _t: number, read: CalendarRead) => bounded(() => new Promise<never>(() => {}), read.boundMs, read.signal), put: async () => 'written' as const, remove: async () => {} };
      const desk = createDeskFactory({ db: core!.db, now, keys: TEST_KEYS, log: quiet, calendar: hung, boundMs: 100 })(user.id);
      expect(await desk.offer({ wish: 'tomorrow' })).toMatchObject({ kind: 'unavailable', reason: 'the calendar did not answer within 100 ms' });
      const call = await callFrom(core!.db, user.id, '+447700900008');
      expect((await desk.book({ slotId: offered.slots[0]!.id, callId: call, callerName: 'Fay', callerNumber: '+447700900008' })).kind).toBe('unavailable');
      const down = { ...hung, busy: () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:5232')) };
      const downDesk = createDeskFactory({ db: core!.db, now, keys: TEST_KEYS, log: quiet, calendar: down })(user.id);
      expect(await downDesk.offer({ wish: '' })).toMatchObject({ kind: 'unavailable', reason: 'the calendar could not be read: connect ECONNREFUSED 127.0.0.1:5232' });
      expect(await core!.db.select().from(bookings).where(eq(bookings.userId, user.id))).toHaveLength(0);
    } finally {
      await core!.close();
    }
  });
});

// PostgreSQL's own guard, which SQLite has no equivalent of: an exclusion constraint (drizzle-pg's
// booking migration) refuses an overlapping live booking whatever path wrote it. On SQLite every
// write goes through the claim's transaction (the cases above, on both engines).
describe('booking on postgres, past the claim', () => {
  it('the exclusion constraint refuses an overlap that starts at another time', async () => {
    const [core] = await engines.find((e) => e.name === 'postgres')!.open();
    try {
      const { user, service } = await ownerWithService(core!.db);
      const { bookings } = tablesOf(core!.db);
      const row = bookingRow(user.id, service.id);
      await core!.db.insert(bookings).values(row('2026-12-02T10:00:00Z', '2026-12-02T11:00:00Z'));
      const err = await core!.db.insert(bookings).values(row('2026-12-02T10:30:00Z', '2026-12-02T11:30:00Z')).then(() => null, (e: unknown) => e);
      expect(isExclusionViolation(err)).toBe(true);
    } finally {
      await core!.close();
    }
  });
});
