import { and, eq, inArray, isNotNull, isNull, lte, ne, or } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { tablesOf, type BookingRow } from '../../db/schema.js';

// A booking's deposit moves by one guarded UPDATE per transition (… where deposit_state is what
// the move starts from), so a repeated or late event, a second core or the sweep racing a
// webhook changes it once: whoever's UPDATE returns the row does the move's texts.

export async function bookingById(db: Db, bookingId: number): Promise<BookingRow | undefined> {
  const { bookings } = tablesOf(db);
  return (await db.select().from(bookings).where(eq(bookings.id, bookingId)).limit(1))[0];
}

/**
 * The booking holding a Checkout Session (the column is unique). A moved booking takes its
 * session along (core/booking/store/claim.ts), so the session's metadata may name the old one.
 */
export async function bookingBySession(db: Db, sessionId: string): Promise<BookingRow | undefined> {
  const { bookings } = tablesOf(db);
  return (await db.select().from(bookings).where(eq(bookings.depositSessionId, sessionId)).limit(1))[0];
}

export async function serviceName(db: Db, serviceId: number): Promise<string> {
  const { bookingServices } = tablesOf(db);
  return (await db.select({ name: bookingServices.name }).from(bookingServices).where(eq(bookingServices.id, serviceId)).limit(1))[0]?.name ?? 'booking';
}

export async function setSession(db: Db, bookingId: number, sessionId: string, url: string): Promise<BookingRow | undefined> {
  const { bookings } = tablesOf(db);
  return (await db.update(bookings).set({ depositSessionId: sessionId, depositUrl: url })
    .where(and(eq(bookings.id, bookingId), eq(bookings.depositState, 'awaiting'))).returning())[0];
}

/** awaiting → paid (the booking stands, confirmed). */
export async function markPaid(db: Db, bookingId: number, paymentIntent: string | null): Promise<BookingRow | undefined> {
  const { bookings } = tablesOf(db);
  return (await db.update(bookings).set({ depositState: 'paid', depositPaymentIntent: paymentIntent })
    .where(and(eq(bookings.id, bookingId), eq(bookings.depositState, 'awaiting'), eq(bookings.status, 'booked'))).returning())[0];
}

/**
 * A payment for a booking no longer awaiting it (released, or cancelled while its link was
 * out): recorded as paid so the refund that follows (and the sweep, if Stripe fails) has its payment.
 */
export async function markLatePaid(db: Db, bookingId: number, paymentIntent: string | null): Promise<BookingRow | undefined> {
  const { bookings } = tablesOf(db);
  return (await db.update(bookings).set({ depositState: 'paid', depositPaymentIntent: paymentIntent })
    .where(and(eq(bookings.id, bookingId), inArray(bookings.depositState, ['awaiting', 'expired']), eq(bookings.status, 'cancelled'))).returning())[0];
}

/** awaiting → expired, and the live booking released (its slot free for everyone). */
export async function markReleased(db: Db, bookingId: number, now: Date): Promise<BookingRow | undefined> {
  const { bookings } = tablesOf(db);
  return (await db.update(bookings).set({ depositState: 'expired', status: 'cancelled', cancelledBy: 'unpaid', cancelledAt: now })
    .where(and(eq(bookings.id, bookingId), eq(bookings.depositState, 'awaiting'), eq(bookings.status, 'booked'))).returning())[0];
}

/** A booking cancelled while its link was out: the link is dead (expired at Stripe), nothing was paid. */
export async function markUnpaidCancelled(db: Db, bookingId: number): Promise<BookingRow | undefined> {
  const { bookings } = tablesOf(db);
  return (await db.update(bookings).set({ depositState: 'expired' })
    .where(and(eq(bookings.id, bookingId), eq(bookings.depositState, 'awaiting'), eq(bookings.status, 'cancelled'))).returning())[0];
}

/** paid → refunded or kept, for a cancelled booking only. */
export async function markSettled(db: Db, bookingId: number, to: 'refunded' | 'kept'): Promise<BookingRow | undefined> {
  const { bookings } = tablesOf(db);
  return (await db.update(bookings).set({ depositState: to })
    .where(and(eq(bookings.id, bookingId), eq(bookings.depositState, 'paid'), eq(bookings.status, 'cancelled'))).returning())[0];
}

/** Holds past their time: still awaiting and live. */
export async function dueHolds(db: Db, now: Date): Promise<BookingRow[]> {
  const { bookings } = tablesOf(db);
  return db.select().from(bookings).where(and(eq(bookings.depositState, 'awaiting'), eq(bookings.status, 'booked'), isNotNull(bookings.depositDueAt), lte(bookings.depositDueAt, now)));
}

/**
 * Work a failed Stripe call left: cancelled bookings with a paid deposit not yet refunded or
 * kept, and cancelled ones whose link is still out. A booking moved to a new one carried its
 * deposit there (rules.ts depositMovedOn).
 */
export async function unsettled(db: Db): Promise<BookingRow[]> {
  const { bookings } = tablesOf(db);
  return db.select().from(bookings).where(and(eq(bookings.status, 'cancelled'), inArray(bookings.depositState, ['paid', 'awaiting']), or(ne(bookings.cancelledBy, 'moved'), isNull(bookings.movedToId))));
}
