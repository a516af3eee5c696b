import { and, eq } from 'drizzle-orm';
import type { RefusalRule } from '../../../contract/schemas/booking.js';
import { isUniqueViolation, type Db } from '../../db/client.js';
import { tablesOf, type BookingRow } from '../../db/schema.js';
import { lockOwner, transaction } from '../../db/transaction.js';
import { DAY_MS } from '../../time/london-time.js';
import type { BookingRules } from '../rules/booking-rules.js';
import { refusalOf } from '../rules/refusal.js';
import { slotVerdict, type Interval } from '../rules/slots.js';
import { asBlocked, liveBookingOfCall, liveBookingsBetween } from './bookings.js';
import { personOfBooking } from './people.js';

// The claim: a slot becomes a booking in one transaction that re-reads the person's live bookings
// and re-runs the slot rules on them, so no two live bookings of one person overlap and no cap is
// passed; two people may be booked at one time (issue 58).
// SQLite runs transactions one at a time; on PostgreSQL lockOwner makes two cores take turns,
// and the exclusion constraint (drizzle-pg's booking migration) refuses an overlap whatever
// path wrote it. A retry from the same call and slot finds the booking it already made.

export interface ClaimRequest {
  ownerId: number;
  /** The person the booking is with (always stored: the owner's member in a business without a team). */
  staffId: number;
  /** The owner's member: a live booking stored without a person is theirs. */
  ownerMemberId: number;
  serviceId: number;
  durationMinutes: number;
  bufferMinutes: number;
  start: number;
  slotKey: string;
  callId: number | null;
  callerName: string;
  callerNumber: string;
  rules: BookingRules;
  /** The person's calendar around the slot, read just before the claim. */
  busy: readonly Interval[];
  now: number;
  /** A move: this booking is cancelled in the same transaction the new one is claimed in. */
  replaces?: number;
  /**
   * The owner booking a caller from Call Details: none when the call already has a live booking,
   * decided under the lock so two clicks (or the owner and the agent) cannot make two.
   */
  onePerCall?: boolean;
  /**
   * Issue 59: the booking waits for a deposit ('awaiting'), claimed live so it blocks the slot for
   * everyone else from its first moment. A move needs none: it carries the old booking's over.
   */
  deposit?: { pence: number; dueAt: Date };
}

/** A booking's deposit columns, carried from a moved booking to its new one (the pay link and its session follow it). */
const depositColumns = (b: BookingRow) => ({
  depositState: b.depositState, depositPence: b.depositPence, depositDueAt: b.depositDueAt,
  depositSessionId: b.depositSessionId, depositUrl: b.depositUrl, depositPaymentIntent: b.depositPaymentIntent,
});

/**
 * 'not-offered': the rules alone exclude the start (see slotVerdict); 'taken': something holds it.
 * `rule` names which (rules/refusal.ts), for the owner who picked the time.
 */
export type ClaimResult = { kind: 'booked'; row: BookingRow; fresh: boolean } | { kind: 'taken' | 'not-offered'; rule: RefusalRule } | { kind: 'call-booked'; row: BookingRow };

/** PostgreSQL's exclusion_violation: an overlapping live booking. */
export const isExclusionViolation = (err: unknown): boolean => {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 3; e = (e as { cause?: unknown }).cause, depth++) {
    if ((e as { code?: unknown }).code === '23P01') return true;
  }
  return false;
};

export async function claimSlot(db: Db, req: ClaimRequest): Promise<ClaimResult> {
  try {
    return await transaction(db, async (tx): Promise<ClaimResult> => {
      const { bookings } = tablesOf(tx);
      // After the lock, so a retry racing its first attempt on another connection sees what that one wrote.
      await lockOwner(tx, req.ownerId);
      if (req.onePerCall && req.callId !== null) {
        const held = await liveBookingOfCall(tx, req.ownerId, req.callId);
        if (held) return { kind: 'call-booked', row: held };
      }
      if (req.callId !== null) {
        const again = (await tx.select().from(bookings)
          .where(and(eq(bookings.userId, req.ownerId), eq(bookings.callId, req.callId), eq(bookings.slotKey, req.slotKey), eq(bookings.status, 'booked'))).limit(1))[0];
        if (again) return { kind: 'booked', row: again, fresh: false };
      }
      // The whole London day either side, so the daily cap counts every booking of the slot's day.
      const live = (await liveBookingsBetween(tx, req.ownerId, req.start - 2 * DAY_MS, req.start + 2 * DAY_MS))
        .filter((b) => b.id !== req.replaces && personOfBooking(b, req.ownerMemberId) === req.staffId);
      const query = { now: req.now, rules: req.rules, service: req, busy: req.busy, booked: asBlocked(live) };
      const verdict = slotVerdict(query, req.start);
      if (verdict !== 'free') return { kind: verdict, rule: refusalOf(query, req.start) ?? 'overlaps-booking' };
      const now = new Date(req.now);
      let carried: ReturnType<typeof depositColumns> | undefined;
      if (req.replaces !== undefined) {
        const old = (await tx.update(bookings).set({ status: 'cancelled', cancelledBy: 'moved', cancelledAt: now })
          .where(and(eq(bookings.id, req.replaces), eq(bookings.userId, req.ownerId), eq(bookings.status, 'booked'))).returning())[0];
        if (old?.depositState) {
          carried = depositColumns(old);
          // The Checkout Session is unique to one booking: it moves to the new one with the deposit.
          if (old.depositSessionId !== null) await tx.update(bookings).set({ depositSessionId: null }).where(eq(bookings.id, old.id));
        }
      }
      const deposit = carried ?? (req.deposit ? { depositState: 'awaiting' as const, depositPence: req.deposit.pence, depositDueAt: req.deposit.dueAt } : {});
      const end = req.start + req.durationMinutes * 60_000;
      const row = (await tx.insert(bookings).values({
        userId: req.ownerId, serviceId: req.serviceId, startAt: new Date(req.start), endAt: new Date(end),
        blockEndAt: new Date(end + req.bufferMinutes * 60_000), callerName: req.callerName, callerNumber: req.callerNumber,
        callId: req.callId, slotKey: req.slotKey, status: 'booked', createdAt: now, staffId: req.staffId, ...deposit,
      }).returning())[0]!;
      // The moved booking points at its new one: Call Details of the call that made it shows the new time.
      if (req.replaces !== undefined) await tx.update(bookings).set({ movedToId: row.id }).where(eq(bookings.id, req.replaces));
      return { kind: 'booked', row, fresh: true };
    });
  } catch (err) {
    // Another writer got there first (a path that skipped the lock, or a core whose lock raced the index).
    if (isUniqueViolation(err) || isExclusionViolation(err)) return { kind: 'taken', rule: 'overlaps-booking' };
    throw err;
  }
}

/**
 * Takes back a claim nobody was told of: the winner of a race whose calendar then had something
 * at that time, or could not be read. Never a booking a caller or owner has heard of (those are cancelled).
 */
export async function withdrawClaim(db: Db, ownerId: number, bookingId: number): Promise<void> {
  const { bookings } = tablesOf(db);
  await db.delete(bookings).where(and(eq(bookings.id, bookingId), eq(bookings.userId, ownerId), eq(bookings.status, 'booked')));
}
