import { and, asc, desc, eq, gt, gte, lt, ne } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { tablesOf, type BookingRow } from '../../db/schema.js';
import type { Interval } from '../rules/slots.js';
import { shortWhen } from '../../../dialogue/language/dates.js';

/** A booking with its service's name, as the texts, the events and the owner's API show it. */
export interface NamedBooking {
  row: BookingRow;
  serviceName: string;
}

/** Live bookings whose blocked time touches [from, to), soonest first. */
export function liveBookingsBetween(db: Db, userId: number, from: number, to: number): Promise<BookingRow[]> {
  const { bookings } = tablesOf(db);
  return db.select().from(bookings)
    .where(and(eq(bookings.userId, userId), eq(bookings.status, 'booked'), lt(bookings.startAt, new Date(to)), gt(bookings.blockEndAt, new Date(from))))
    .orderBy(asc(bookings.startAt));
}

/** What a call booked, if it still stands: "Boiler service, Tue 3 Dec, 10:00", or "Boiler service with Tom, …" with a team member (the owner's call text). */
export async function bookedByCall(db: Db, callId: number): Promise<string | null> {
  const { bookingServices, bookings, staff } = tablesOf(db);
  const row = (await db
    .select({ service: bookingServices.name, startAt: bookings.startAt, person: staff.name, isOwner: staff.isOwner })
    .from(bookings)
    .innerJoin(bookingServices, eq(bookingServices.id, bookings.serviceId))
    .leftJoin(staff, eq(staff.id, bookings.staffId))
    .where(and(eq(bookings.callId, callId), eq(bookings.status, 'booked')))
    .orderBy(asc(bookings.startAt))
    .limit(1))[0];
  if (!row) return null;
  return `${row.service}${row.person && !row.isOwner ? ` with ${row.person}` : ''}, ${shortWhen(row.startAt)}`;
}

/** Where a booking is now: the booking that took its place, and so on, if it was moved (the row itself if not). */
export async function whereNow(db: Db, ownerId: number, row: BookingRow): Promise<BookingRow> {
  const { bookings } = tablesOf(db);
  let at = row;
  // Bounded: each move makes one new row, and no owner moves one booking a hundred times.
  for (let hops = 0; at.movedToId !== null && hops < 100; hops++) {
    const next = (await db.select().from(bookings).where(and(eq(bookings.id, at.movedToId), eq(bookings.userId, ownerId))).limit(1))[0];
    if (!next) break;
    at = next;
  }
  return at;
}

/** The live booking a call made, wherever it was moved since; null when it has none (or all were cancelled). */
export async function liveBookingOfCall(db: Db, ownerId: number, callId: number): Promise<BookingRow | null> {
  const { bookings } = tablesOf(db);
  const made = await db.select().from(bookings).where(and(eq(bookings.userId, ownerId), eq(bookings.callId, callId))).orderBy(asc(bookings.id));
  for (const row of made) {
    const now = await whereNow(db, ownerId, row);
    if (now.status === 'booked') return now;
  }
  return null;
}

export const asBlocked = (rows: readonly BookingRow[]): Interval[] => rows.map((b) => ({ start: b.startAt.getTime(), end: b.blockEndAt.getTime() }));

/** Bookings joined to their service's name: the shape of every NamedBooking query below. */
function namedBookings(db: Db) {
  const { bookingServices, bookings } = tablesOf(db);
  return { bookings, query: db.select({ row: bookings, serviceName: bookingServices.name }).from(bookings).innerJoin(bookingServices, eq(bookingServices.id, bookings.serviceId)) };
}

/** One booking, whoever's, with its service's name (the jobs and the signed .ics link). */
export async function bookingWithService(db: Db, bookingId: number): Promise<NamedBooking | undefined> {
  const { bookings, query } = namedBookings(db);
  return (await query.where(eq(bookings.id, bookingId)).limit(1))[0];
}

/** One of the owner's bookings, live or not. */
export async function ownedBooking(db: Db, ownerId: number, bookingId: number): Promise<BookingRow | undefined> {
  const { bookings } = tablesOf(db);
  return (await db.select().from(bookings).where(and(eq(bookings.id, bookingId), eq(bookings.userId, ownerId))).limit(1))[0];
}

/** Whether a live booking holds this booking's slot (the slot booked again since it was cancelled). */
export async function slotHeldAgain(db: Db, b: BookingRow): Promise<boolean> {
  const { bookings } = tablesOf(db);
  const again = await db.select({ id: bookings.id }).from(bookings)
    .where(and(eq(bookings.userId, b.userId), eq(bookings.serviceId, b.serviceId), eq(bookings.startAt, b.startAt), eq(bookings.status, 'booked'))).limit(1);
  return again.length > 0;
}

/** A caller's live bookings with the owner still to come, soonest first. */
export function upcomingOfCaller(db: Db, ownerId: number, callerNumber: string, now: Date): Promise<NamedBooking[]> {
  const { bookings, query } = namedBookings(db);
  return query.where(and(eq(bookings.userId, ownerId), eq(bookings.callerNumber, callerNumber), eq(bookings.status, 'booked'), gt(bookings.startAt, now)))
    .orderBy(asc(bookings.startAt));
}

/** The name a booking holds for a caller the owner booked without one. */
export const UNNAMED_CALLER = 'Caller';

/**
 * The name the caller gave for their newest booking with this owner (any status), or null when
 * no booking knows it: Caller Texts heads the caller's thread with it.
 */
export async function knownNameOfCaller(db: Db, ownerId: number, callerNumber: string): Promise<string | null> {
  const { bookings } = tablesOf(db);
  const row = (await db.select({ name: bookings.callerName }).from(bookings)
    .where(and(eq(bookings.userId, ownerId), eq(bookings.callerNumber, callerNumber), ne(bookings.callerName, UNNAMED_CALLER)))
    .orderBy(desc(bookings.createdAt)).limit(1))[0];
  return row?.name.trim() || null;
}

/** The owner's bookings, whatever their status, starting from `from` on, with their service's name. */
export function bookingsFrom(db: Db, ownerId: number, from: Date): Promise<NamedBooking[]> {
  const { bookings, query } = namedBookings(db);
  return query.where(and(eq(bookings.userId, ownerId), gte(bookings.startAt, from)))
    .orderBy(asc(bookings.startAt));
}

/** The bookings one call made, whatever their day or status, with their service's name. */
export function bookingsOfCall(db: Db, ownerId: number, callId: number): Promise<NamedBooking[]> {
  const { bookings, query } = namedBookings(db);
  return query.where(and(eq(bookings.userId, ownerId), eq(bookings.callId, callId)))
    .orderBy(asc(bookings.startAt));
}

/** Cancels a live booking; null when it was not live (already cancelled, someone else's). */
export async function cancelBooking(db: Db, ownerId: number, bookingId: number, by: 'owner' | 'caller' | 'moved' | 'unpaid', now: Date): Promise<BookingRow | null> {
  const { bookings } = tablesOf(db);
  const rows = await db.update(bookings).set({ status: 'cancelled', cancelledBy: by, cancelledAt: now })
    .where(and(eq(bookings.id, bookingId), eq(bookings.userId, ownerId), eq(bookings.status, 'booked'))).returning();
  return rows[0] ?? null;
}
