import { and, asc, eq, isNull } from 'drizzle-orm';
import type { DepositKind } from '../../../contract/enums.js';
import type { Db } from '../../db/client.js';
import { tablesOf, type BookingServiceRow } from '../../db/schema.js';

/** What an owner may set of a service (checked by the route). */
export interface ServiceFields {
  name: string;
  durationMinutes: number;
  bufferMinutes: number;
  agentSentence: string | null;
  /** Issue 59: checked together by the route (rules/deposit-settings.ts). */
  pricePence: number | null;
  depositKind: DepositKind;
  depositPence: number | null;
  depositHoldMinutes: number;
}

export function activeServices(db: Db, userId: number): Promise<BookingServiceRow[]> {
  const { bookingServices } = tablesOf(db);
  return db.select().from(bookingServices)
    .where(and(eq(bookingServices.userId, userId), isNull(bookingServices.archivedAt)))
    .orderBy(asc(bookingServices.id));
}

/** One of the owner's services, archived or not: a booking keeps its service's name. */
export async function serviceById(db: Db, userId: number, id: number): Promise<BookingServiceRow | undefined> {
  const { bookingServices } = tablesOf(db);
  return (await db.select().from(bookingServices).where(and(eq(bookingServices.userId, userId), eq(bookingServices.id, id))).limit(1))[0];
}

/** One of the owner's services that can still be booked. */
export async function activeService(db: Db, userId: number, id: number): Promise<BookingServiceRow | undefined> {
  const s = await serviceById(db, userId, id);
  return s && !s.archivedAt ? s : undefined;
}

export async function createService(db: Db, userId: number, fields: ServiceFields): Promise<BookingServiceRow> {
  const { bookingServices } = tablesOf(db);
  return (await db.insert(bookingServices).values({ userId, ...fields }).returning())[0]!;
}

export async function updateService(db: Db, id: number, fields: ServiceFields): Promise<BookingServiceRow> {
  const { bookingServices } = tablesOf(db);
  return (await db.update(bookingServices).set(fields).where(eq(bookingServices.id, id)).returning())[0]!;
}

/** Archived, not deleted: its bookings keep their service's name. */
export async function archiveService(db: Db, id: number, now: Date): Promise<BookingServiceRow> {
  const { bookingServices } = tablesOf(db);
  return (await db.update(bookingServices).set({ archivedAt: now }).where(eq(bookingServices.id, id)).returning())[0]!;
}
