import { and, asc, eq, gt, isNull, lt } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { tablesOf, type BookingRow, type BookingServiceRow } from '../db/schema.js';
import { loadCallHandling } from '../call-handling/store.js';
import { BOOKING_DEFAULTS, type BookingRules } from './rules.js';
import type { Interval } from './slots.js';
import { shortWhen } from '../../dialogue/language/dates.js';

/** The owner's rules: their stored ones over the defaults; hours and holidays from call handling unless set. */
export async function loadRules(db: Db, userId: number): Promise<BookingRules> {
  const { bookingRules } = tablesOf(db);
  const handling = await loadCallHandling(db, userId);
  const row = (await db.select().from(bookingRules).where(eq(bookingRules.userId, userId)).limit(1))[0];
  return {
    hours: row?.hours ?? handling.hours,
    holidayNations: handling.holidayNations,
    noticeMinutes: row?.noticeMinutes ?? BOOKING_DEFAULTS.noticeMinutes,
    horizonDays: row?.horizonDays ?? BOOKING_DEFAULTS.horizonDays,
    dailyCap: row ? row.dailyCap : BOOKING_DEFAULTS.dailyCap,
  };
}

export async function saveRules(db: Db, userId: number, rules: Pick<BookingRules, 'noticeMinutes' | 'horizonDays' | 'dailyCap'> & { hours: BookingRules['hours'] | null }, now: Date): Promise<void> {
  const { bookingRules } = tablesOf(db);
  const values = { ...rules, updatedAt: now };
  await db.insert(bookingRules).values({ userId, ...values }).onConflictDoUpdate({ target: bookingRules.userId, set: values });
}

export function activeServices(db: Db, userId: number): Promise<BookingServiceRow[]> {
  const { bookingServices } = tablesOf(db);
  return db.select().from(bookingServices)
    .where(and(eq(bookingServices.userId, userId), isNull(bookingServices.archivedAt)))
    .orderBy(asc(bookingServices.id));
}

export async function serviceById(db: Db, userId: number, id: number): Promise<BookingServiceRow | undefined> {
  const { bookingServices } = tablesOf(db);
  return (await db.select().from(bookingServices).where(and(eq(bookingServices.userId, userId), eq(bookingServices.id, id))).limit(1))[0];
}

/** Live bookings whose blocked time touches [from, to), soonest first. */
export function liveBookingsBetween(db: Db, userId: number, from: number, to: number): Promise<BookingRow[]> {
  const { bookings } = tablesOf(db);
  return db.select().from(bookings)
    .where(and(eq(bookings.userId, userId), eq(bookings.status, 'booked'), lt(bookings.startAt, new Date(to)), gt(bookings.blockEndAt, new Date(from))))
    .orderBy(asc(bookings.startAt));
}

/** What a call booked, if it still stands: "Boiler service, Tue 3 Dec, 10:00" (the owner's call text). */
export async function bookedByCall(db: Db, callId: number): Promise<string | null> {
  const { bookingServices, bookings } = tablesOf(db);
  const row = (await db
    .select({ service: bookingServices.name, startAt: bookings.startAt })
    .from(bookings)
    .innerJoin(bookingServices, eq(bookingServices.id, bookings.serviceId))
    .where(and(eq(bookings.callId, callId), eq(bookings.status, 'booked')))
    .orderBy(asc(bookings.startAt))
    .limit(1))[0];
  return row ? `${row.service}, ${shortWhen(row.startAt)}` : null;
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

export async function businessName(db: Db, userId: number): Promise<string> {
  const { users } = tablesOf(db);
  const row = (await db.select({ name: users.businessName }).from(users).where(eq(users.id, userId)).limit(1))[0];
  return row?.name?.trim() || 'the business';
}

/** What the owner stored (for the API), defaults filled in; hours null = the call-handling hours. */
export async function storedRules(db: Db, userId: number): Promise<{ hours: BookingRules['hours'] | null; noticeMinutes: number; horizonDays: number; dailyCap: number | null }> {
  const { bookingRules } = tablesOf(db);
  const row = (await db.select().from(bookingRules).where(eq(bookingRules.userId, userId)).limit(1))[0];
  return {
    hours: row?.hours ?? null,
    noticeMinutes: row?.noticeMinutes ?? BOOKING_DEFAULTS.noticeMinutes,
    horizonDays: row?.horizonDays ?? BOOKING_DEFAULTS.horizonDays,
    dailyCap: row ? row.dailyCap : BOOKING_DEFAULTS.dailyCap,
  };
}
