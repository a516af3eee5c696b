import { and, asc, desc, eq, isNull } from 'drizzle-orm';
import type { OpeningSpan, Weekday } from '../../../contract/call-handling.js';
import type { Db } from '../../db/client.js';
import { tablesOf, type BookingRow, type StaffRow } from '../../db/schema.js';
import { ownerMember } from '../../team/store.js';

// Who a booking is with (issue 58): the people who do a service, read from staff_services (the
// team's routes write it). A business without a team has one person, the owner's member, so
// its diary is the one it had before.

export interface BookingPerson {
  staffId: number;
  name: string;
  otherNames: string[];
  /** What callers may ask for them as ("a stylist"); null when the owner gave none. */
  roleWord: string | null;
  isOwner: boolean;
  /** Their own working hours; null = the booking hours. */
  hours: Record<Weekday, OpeningSpan[]> | null;
  /** Their length of the service; null = the service's. */
  durationMinutes: number | null;
}

const asPerson = (s: StaffRow, durationMinutes: number | null): BookingPerson => ({
  staffId: s.id, name: s.name, otherNames: s.otherNames, roleWord: s.roleWord ?? null, isOwner: s.isOwner, hours: s.hours ?? null, durationMinutes,
});

export interface ServicePeople {
  /** The owner's member: a booking row without a person (written before the team) is theirs. */
  ownerMemberId: number;
  /** In the owner's order (the owner first, then by position). */
  people: BookingPerson[];
}

/** Everyone who does a service now; the owner alone when the owner has listed nobody for it. */
export async function peopleForService(db: Db, ownerId: number, serviceId: number): Promise<ServicePeople> {
  const { staff, staffServices } = tablesOf(db);
  const owner = await ownerMember(db, ownerId);
  const rows = await db.select({ member: staff, durationMinutes: staffServices.durationMinutes }).from(staffServices)
    .innerJoin(staff, eq(staff.id, staffServices.staffId))
    .where(and(eq(staffServices.serviceId, serviceId), eq(staff.userId, ownerId), isNull(staff.removedAt)))
    .orderBy(desc(staff.isOwner), asc(staff.position), asc(staff.id));
  const people = rows.map((r) => asPerson(r.member, r.durationMinutes));
  return { ownerMemberId: owner.id, people: people.length ? people : [asPerson(owner, null)] };
}

/** The person a booking is with; a row from before the team is the owner's. */
export const personOfBooking = (row: Pick<BookingRow, 'staffId'>, ownerMemberId: number): number => row.staffId ?? ownerMemberId;

/** A member's name and whether they are the owner, by id (removed members too: their bookings stay theirs). */
export async function memberById(db: Db, ownerId: number, staffId: number): Promise<StaffRow | undefined> {
  const { staff } = tablesOf(db);
  return (await db.select().from(staff).where(and(eq(staff.id, staffId), eq(staff.userId, ownerId))).limit(1))[0];
}

/** A member as a booking person, by id, whether or not they still do the service (a booking of theirs moved in time). */
export async function personById(db: Db, ownerId: number, staffId: number): Promise<BookingPerson | undefined> {
  const m = await memberById(db, ownerId, staffId);
  return m && asPerson(m, null);
}

/** The business's members by id, removed ones too (the feed names the person of each booking). */
export async function membersById(db: Db, ownerId: number): Promise<Map<number, StaffRow>> {
  const { staff } = tablesOf(db);
  return new Map((await db.select().from(staff).where(eq(staff.userId, ownerId))).map((s) => [s.id, s]));
}
