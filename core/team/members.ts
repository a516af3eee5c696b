import { and, eq, inArray, isNull, max, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { tablesOf, type StaffRow } from '../db/schema.js';
import type { MemberFields } from './validate-member.js';
import type { MemberService } from './validate-services.js';
import type { TeamSettings } from './store.js';

// The team's writes (issue 58 item 1): the routes call these inside transaction() after the
// pure rules (validate-*.ts) passed, so every query here may run again on PostgreSQL.

/** A current member of this owner's team (removed ones are not found). */
export async function currentMember(db: Db, ownerId: number, id: number): Promise<StaffRow | undefined> {
  const { staff } = tablesOf(db);
  return (await db.select().from(staff).where(and(eq(staff.id, id), eq(staff.userId, ownerId), isNull(staff.removedAt))).limit(1))[0];
}

export async function addMember(db: Db, ownerId: number, fields: MemberFields, now: Date): Promise<StaffRow> {
  const { staff } = tablesOf(db);
  const last = (await db.select({ p: max(staff.position) }).from(staff).where(eq(staff.userId, ownerId)))[0]?.p ?? 0;
  const [row] = await db.insert(staff).values({ userId: ownerId, ...fields, isOwner: false, position: last + 1, createdAt: now }).returning();
  return row!;
}

export async function updateMember(db: Db, id: number, fields: MemberFields): Promise<StaffRow> {
  const { staff } = tablesOf(db);
  const [row] = await db.update(staff).set(fields).where(eq(staff.id, id)).returning();
  return row!;
}

/** Removal keeps the row: the calls and bookings that name them stay attributed. */
export async function removeMember(db: Db, id: number, now: Date): Promise<void> {
  const { staff } = tablesOf(db);
  await db.update(staff).set({ removedAt: now }).where(eq(staff.id, id));
}

/** What each of these members does, by member id. */
export async function servicesOf(db: Db, staffIds: readonly number[]): Promise<Map<number, MemberService[]>> {
  const { staffServices } = tablesOf(db);
  const out = new Map<number, MemberService[]>(staffIds.map((id) => [id, []]));
  if (staffIds.length === 0) return out;
  const rows = await db.select().from(staffServices).where(inArray(staffServices.staffId, [...staffIds])).orderBy(staffServices.id);
  for (const r of rows) out.get(r.staffId)?.push({ serviceId: r.serviceId, durationMinutes: r.durationMinutes });
  return out;
}

/** Replaces the whole list of what a member does. */
export async function setServices(db: Db, staffId: number, services: readonly MemberService[]): Promise<void> {
  const { staffServices } = tablesOf(db);
  await db.delete(staffServices).where(eq(staffServices.staffId, staffId));
  if (services.length > 0) await db.insert(staffServices).values(services.map((s) => ({ staffId, ...s })));
}

export async function saveTeamSettings(db: Db, ownerId: number, settings: TeamSettings, now: Date): Promise<void> {
  const { teamSettings } = tablesOf(db);
  const row = { ...settings, updatedAt: now };
  await db.insert(teamSettings).values({ userId: ownerId, ...row }).onConflictDoUpdate({ target: teamSettings.userId, set: row });
}

/** Current members besides the owner, per business: the admin area's staff count. */
export async function staffCounts(db: Db): Promise<Map<number, number>> {
  const { staff } = tablesOf(db);
  const rows = await db
    .select({ userId: staff.userId, n: sql<number>`count(*)` })
    .from(staff)
    .where(and(isNull(staff.removedAt), eq(staff.isOwner, false)))
    .groupBy(staff.userId);
  return new Map(rows.map((r) => [r.userId, Number(r.n)]));
}
