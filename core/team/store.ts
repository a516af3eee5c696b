import { and, asc, eq, isNull } from 'drizzle-orm';
import type { RING_FIRST_STYLES } from '../../contract/enums.js';
import { OWNER_MEMBER_DEFAULT_NAME } from '../../contract/member-name.js';
import type { OnCallRota, RoutingRule } from '../../contract/team.js';
import type { Db } from '../db/client.js';
import { tablesOf, type StaffRow } from '../db/schema.js';

// The team's rows (issue 58): the one place core reads staff and team settings from. Writes
// that validate (add, edit, remove, rules) belong to the team's service beside this file.

export interface TeamSettings {
  ringFirst: (typeof RING_FIRST_STYLES)[number];
  ringSeconds: number;
  copyOwner: boolean;
  rules: RoutingRule[];
  rota: OnCallRota;
}

export const DEFAULT_TEAM_SETTINGS: TeamSettings = { ringFirst: 'off', ringSeconds: 20, copyOwner: false, rules: [], rota: {} };

/** The business's current members (removed ones left out), the owner first, then in the owner's order. */
export async function currentMembers(db: Db, ownerId: number): Promise<StaffRow[]> {
  const { staff } = tablesOf(db);
  return db
    .select()
    .from(staff)
    .where(and(eq(staff.userId, ownerId), isNull(staff.removedAt)))
    .orderBy(asc(staff.position), asc(staff.id));
}

export async function loadTeamSettings(db: Db, ownerId: number): Promise<TeamSettings> {
  const { teamSettings } = tablesOf(db);
  const row = (await db.select().from(teamSettings).where(eq(teamSettings.userId, ownerId)).limit(1))[0];
  if (!row) return { ...DEFAULT_TEAM_SETTINGS, rules: [], rota: {} };
  return { ringFirst: row.ringFirst, ringSeconds: row.ringSeconds, copyOwner: row.copyOwner, rules: row.rules, rota: row.rota };
}

/**
 * The owner's own member row, made the first time it is needed: the migration gave every
 * business one, and a business signed up since gets its row here. Idempotent under a race
 * (staff_one_owner_unique): the loser reads the winner's row.
 */
export async function ownerMember(db: Db, ownerId: number): Promise<StaffRow> {
  const { staff } = tablesOf(db);
  const find = async () => (await db.select().from(staff).where(and(eq(staff.userId, ownerId), eq(staff.isOwner, true))).limit(1))[0];
  const found = await find();
  if (found) return found;
  await db.insert(staff).values({ userId: ownerId, name: OWNER_MEMBER_DEFAULT_NAME, otherNames: [], isOwner: true, position: 0 }).onConflictDoNothing();
  const made = await find();
  if (!made) throw new Error(`owner ${ownerId}'s team member row could not be made`);
  return made;
}
