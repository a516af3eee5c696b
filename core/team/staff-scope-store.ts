import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { tablesOf, type User } from '../db/schema.js';
import { badRequest } from '../http/errors.js';
import { ownRowsOnly, type PersonFilter, type StaffActor } from './staff-scope.js';

// The staff sign-in's reads: who a staff login acts for, and the checks its lists need.

/**
 * The business a staff login acts for, and as whom: undefined when the login is no longer
 * a current member's (removed, revoked) or its business cannot be found.
 */
export async function resolveStaffSignIn(db: Db, login: User): Promise<{ owner: User; actor: StaffActor } | undefined> {
  const { staff, users } = tablesOf(db);
  const row = (await db
    .select({ staff, owner: users })
    .from(staff)
    .innerJoin(users, eq(users.id, staff.userId))
    .where(and(eq(staff.loginUserId, login.id), isNull(staff.removedAt)))
    .limit(1))[0];
  if (!row) return undefined;
  const { staff: s, owner } = row;
  return {
    owner,
    actor: { staffId: s.id, name: s.name, view: s.view, businessName: owner.businessName, loginUserId: login.id },
  };
}

const NOT_A_MEMBER = 'There is no such person on your team.';

/**
 * Checks a `?staffId=` filter names one of the business's people (a removed member too: their
 * past calls and bookings stay theirs), so a typo is a 400 and not an empty list.
 */
export async function checkPersonFilter(db: Db, ownerId: number, filter: PersonFilter): Promise<void> {
  if (filter.kind !== 'person') return;
  const { staff } = tablesOf(db);
  const found = await db.select({ id: staff.id }).from(staff).where(and(eq(staff.id, filter.staffId), eq(staff.userId, ownerId))).limit(1);
  if (found.length === 0) throw badRequest(NOT_A_MEMBER, { staffId: NOT_A_MEMBER });
}

/**
 * The callers a viewer may see the texts and questions of: for a staff member with view 'own',
 * the numbers whose calls were theirs; undefined (every caller) for anyone else.
 */
export async function callersInView(db: Db, ownerId: number, actor: StaffActor | null): Promise<Set<string> | undefined> {
  const own = ownRowsOnly(actor);
  return own === undefined ? undefined : callerNumbersOf(db, ownerId, own);
}

async function callerNumbersOf(db: Db, ownerId: number, staffId: number): Promise<Set<string>> {
  const { calls } = tablesOf(db);
  const rows = await db
    .selectDistinct({ fromNumber: calls.fromNumber })
    .from(calls)
    .where(and(eq(calls.userId, ownerId), eq(calls.staffId, staffId)));
  return new Set(rows.map((r) => r.fromNumber));
}

/**
 * The names of the people and the routing notes of the calls that some of the business's
 * bookings name, read at once (two queries, however many bookings): the list's staffName and routingNote.
 */
export async function bookingPeople(
  db: Db,
  ownerId: number,
  rows: readonly { staffId: number | null; callId: number | null }[],
): Promise<(r: { staffId: number | null; callId: number | null }) => { staffName: string | null; routingNote: string | null }> {
  const { calls, staff } = tablesOf(db);
  const callIds = [...new Set(rows.flatMap((r) => (r.callId === null ? [] : [r.callId])))];
  const names = new Map((await db.select({ id: staff.id, name: staff.name }).from(staff).where(eq(staff.userId, ownerId))).map((s) => [s.id, s.name]));
  const notes = new Map(
    callIds.length === 0
      ? []
      : (await db.select({ id: calls.id, note: calls.routingNote }).from(calls).where(and(eq(calls.userId, ownerId), inArray(calls.id, callIds)))).map((c) => [c.id, c.note]),
  );
  return (r) => ({
    staffName: r.staffId === null ? null : (names.get(r.staffId) ?? null),
    routingNote: r.callId === null ? null : (notes.get(r.callId) ?? null),
  });
}
