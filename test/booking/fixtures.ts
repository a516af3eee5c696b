import { insertUser } from '../../core/accounts/users.js';
import type { Db } from '../../core/db/client.js';
import { tablesOf, type Tables } from '../../core/db/schema.js';
import { keysFromSecret } from '../../core/booking/calendars/keys.js';

/** One secret for every core in a test, as BOOKING_SECRET gives a cluster. */
export const TEST_KEYS = keysFromSecret('test booking secret');
export const quiet = { info: () => {}, warn: () => {}, error: () => {} };

/** An owner with the default call-handling hours (Mon–Fri 09:00–17:30) and one bookable service. */
export async function ownerWithService(db: Db, over: { durationMinutes?: number; bufferMinutes?: number; name?: string } = {}) {
  const { bookingServices } = tablesOf(db);
  const user = await insertUser(db, {
    email: `book-${Math.random().toString(36).slice(2)}@example.co.uk`, passwordHash: 'not-used', accountStatus: 'active', businessName: 'Ace Plumbing',
  });
  const service = (await db.insert(bookingServices).values({
    userId: user.id, name: over.name ?? 'Boiler service', durationMinutes: over.durationMinutes ?? 60, bufferMinutes: over.bufferMinutes ?? 0,
  }).returning())[0]!;
  return { user, service };
}

/** A call row for a booking to come from (bookings.call_id refers to calls). */
export async function callFrom(db: Db, userId: number, fromNumber: string, set: Partial<Tables['calls']['$inferInsert']> = {}): Promise<number> {
  const { calls } = tablesOf(db);
  const at = new Date();
  const row = (await db.insert(calls).values({ userId, fromNumber, toNumber: '+441632960001', status: 'answered', mode: 'agent', duration: 60, createdAt: at, endedAt: at, ...set }).returning())[0]!;
  return row.id;
}

type MemberHours = NonNullable<Tables['staff']['$inferInsert']['hours']>;

/**
 * A team member (issue 58) who does these services, written straight to the tables the team's
 * routes keep: booking reads them and never writes them.
 */
export async function addMember(db: Db, ownerId: number, name: string, does: Array<{ serviceId: number; durationMinutes?: number }>, hours: MemberHours | null = null): Promise<number> {
  const { staff, staffServices } = tablesOf(db);
  const member = (await db.insert(staff).values({ userId: ownerId, name, otherNames: [], hours, position: 1 }).returning())[0]!;
  for (const d of does) await db.insert(staffServices).values({ staffId: member.id, serviceId: d.serviceId, durationMinutes: d.durationMinutes ?? null });
  return member.id;
}
