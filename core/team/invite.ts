import { and, eq, inArray, isNull } from 'drizzle-orm';
import { findUserByEmail, findUserById, insertUser } from '../accounts/users.js';
import { auditTeam } from '../audit/audit.js';
import { isPasswordSet, noPasswordYet } from '../auth/passwords.js';
import { INVITE_TOKEN_TTL_MS, issueResetToken } from '../auth/reset-tokens.js';
import { revokeUserSessions } from '../auth/sessions.js';
import { isUniqueViolation, type Db } from '../db/client.js';
import { tablesOf, type StaffRow, type User } from '../db/schema.js';
import { transaction } from '../db/transaction.js';
import { badRequest, notFound } from '../http/errors.js';

// A staff member's own sign-in (issue 58 item 2): the owner invites them by e-mail, they set a
// password with the mailed link (the password-reset route and its rules), and the owner can
// take the sign-in away again. The login is a users row with role 'staff' named by
// staff.login_user_id; what it may see is core/team/staff-scope.ts's.

const NO_SUCH_MEMBER = 'No such team member.';
const EMAIL_TAKEN = 'That e-mail address already has an account here. Use a different address.';

export interface Invitation {
  member: StaffRow;
  login: User;
  /** The "set your password" token to mail (a reset token, valid INVITE_TOKEN_TTL_MS). */
  token: string;
}

export const INVITE_VALID_DAYS = INVITE_TOKEN_TTL_MS / (24 * 60 * 60 * 1000);

/** A current member of this business (not a removed one), or the 404 the console shows. */
export async function currentMember(db: Db, ownerId: number, staffId: number): Promise<StaffRow> {
  const { staff } = tablesOf(db);
  const row = (await db.select().from(staff).where(and(eq(staff.id, staffId), eq(staff.userId, ownerId), isNull(staff.removedAt))).limit(1))[0];
  if (!row) throw notFound(NO_SUCH_MEMBER);
  return row;
}

/**
 * Gives a member a login under `email` (already checked to be an address, lower-cased) and a
 * token that sets its password. Inviting the same address again issues a fresh link (a lost
 * or expired mail); another address while one is in place is refused, as is an address any
 * account already uses.
 */
export async function inviteStaff(db: Db, ownerId: number, staffId: number, email: string, now: Date): Promise<Invitation> {
  const unusable = noPasswordYet();
  try {
    return await transaction(db, async () => {
      const member = await currentMember(db, ownerId, staffId);
      if (member.isOwner) throw badRequest('You sign in with your own account: invite the people who work with you.');
      const existing = member.loginUserId === null ? undefined : await findUserById(db, member.loginUserId);
      if (existing && existing.email !== email) {
        throw badRequest(`${member.name} already has a sign-in as ${existing.email}. Remove it first to invite another address.`, { email: EMAIL_TAKEN });
      }
      let login = existing;
      if (!login) {
        if (await findUserByEmail(db, email)) throw badRequest(EMAIL_TAKEN, { email: EMAIL_TAKEN });
        login = await insertUser(db, { email, passwordHash: unusable, role: 'staff', accountStatus: 'active', createdAt: now });
        const { staff } = tablesOf(db);
        await db.update(staff).set({ loginUserId: login.id, inviteEmail: email }).where(eq(staff.id, member.id));
      }
      const token = await issueResetToken(db, login.id, now, INVITE_TOKEN_TTL_MS);
      // A fresh link to the same address is an invitation too: each one mailed is on the record.
      await auditTeam(db, ownerId, 'team.invite', login, { staffId: member.id, name: member.name, email }, now);
      return { member, login, token };
    });
  } catch (e) {
    // Two invitations of one address at once both pass the read; the unique index decides.
    if (isUniqueViolation(e)) throw badRequest(EMAIL_TAKEN, { email: EMAIL_TAKEN });
    throw e;
  }
}

/** 'none' (no login), 'invited' (its password not set yet) or 'active': what the Team page shows. */
export function inviteState(login: Pick<User, 'passwordHash'> | undefined): 'none' | 'invited' | 'active' {
  if (!login) return 'none';
  return isPasswordSet(login.passwordHash) ? 'active' : 'invited';
}

/** Each member's invitation as the Team page shows it, read in one query of their logins. */
export async function inviteStates(db: Db, rows: readonly Pick<StaffRow, 'id' | 'loginUserId'>[]): Promise<Map<number, 'none' | 'invited' | 'active'>> {
  const { users } = tablesOf(db);
  const ids = rows.flatMap((r) => (r.loginUserId === null ? [] : [r.loginUserId]));
  const logins = ids.length ? new Map((await db.select({ id: users.id, passwordHash: users.passwordHash }).from(users).where(inArray(users.id, ids))).map((u) => [u.id, u])) : new Map<number, Pick<User, 'passwordHash'>>();
  return new Map(rows.map((r) => [r.id, inviteState(r.loginUserId === null ? undefined : logins.get(r.loginUserId))]));
}

/**
 * Ends a member's sign-in at once: their sessions, the login row and the link to it. Called when
 * the owner revokes it and when the member is removed from the team. Returns the login that was
 * ended (for the audit entry), or null when there was none.
 */
export async function endStaffSignIn(db: Db, staffId: number): Promise<Pick<User, 'id' | 'email'> | null> {
  const { staff, users } = tablesOf(db);
  return transaction(db, async () => {
    const row = (await db.select({ loginUserId: staff.loginUserId, inviteEmail: staff.inviteEmail }).from(staff).where(eq(staff.id, staffId)).limit(1))[0];
    if (!row || row.loginUserId === null) return null;
    const login = { id: row.loginUserId, email: (await findUserById(db, row.loginUserId))?.email ?? row.inviteEmail ?? '' };
    await revokeUserSessions(db, row.loginUserId);
    await db.update(staff).set({ loginUserId: null, inviteEmail: null }).where(eq(staff.id, staffId));
    // Only ever a staff login: an owner's or admin's account is never deleted from here.
    await db.delete(users).where(and(eq(users.id, row.loginUserId), eq(users.role, 'staff')));
    return login;
  });
}

/**
 * A business's erasure: its staff rows go with the owner's by cascade, but their logins are
 * users rows of their own, deleted here first (inside the erasure's transaction).
 */
export async function deleteStaffLogins(db: Db, ownerId: number): Promise<number> {
  const { staff, users } = tablesOf(db);
  const logins = (await db.select({ id: staff.loginUserId }).from(staff).where(eq(staff.userId, ownerId))).flatMap((r) => (r.id === null ? [] : [r.id]));
  if (logins.length === 0) return 0;
  await db.delete(users).where(and(inArray(users.id, logins), eq(users.role, 'staff')));
  return logins.length;
}
