import { and, desc, eq, gt, lt, ne, notInArray, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { preparedPerDb } from '../db/prepared.js';
import { tablesOf, type User } from '../db/schema.js';
import { hashToken, newToken } from './tokens.js';
import { transaction } from '../db/transaction.js';

export const SESSION_COOKIE = 'sid';
export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;
/** Sessions kept per user: a new sign-in beyond this ends the oldest (a script signing in forever fills nothing). */
export const MAX_SESSIONS_PER_USER = 10;

export async function createSession(db: Db, userId: number, now: Date): Promise<{ id: string; expiresAt: Date }> {
  const { sessions } = tablesOf(db);
  const id = newToken();
  const expiresAt = new Date(now.getTime() + SESSION_TTL_MS);
  const idHash = hashToken(id);
  await transaction(db, async () => {
    await db.insert(sessions).values({ idHash, userId, createdAt: now, expiresAt });
    // The new session and the user's newest others up to the cap stay (sessions opened in the
    // same millisecond are told apart arbitrarily, but never at the new one's expense).
    const newestOthers = db
      .select({ idHash: sessions.idHash })
      .from(sessions)
      .where(and(eq(sessions.userId, userId), ne(sessions.idHash, idHash)))
      .orderBy(desc(sessions.createdAt), desc(sessions.idHash))
      .limit(MAX_SESSIONS_PER_USER - 1);
    await db.delete(sessions).where(and(eq(sessions.userId, userId), ne(sessions.idHash, idHash), notInArray(sessions.idHash, newestOthers)));
  });
  return { id, expiresAt };
}

// Every signed-in request looks its session up: compiled once, not per request.
const statements = preparedPerDb('sessions', (db, { sessions, users }) => ({
  userForSession: db
    .select({ user: users })
    .from(sessions)
    .innerJoin(users, eq(sessions.userId, users.id))
    .where(and(eq(sessions.idHash, sql.placeholder('idHash')), gt(sessions.expiresAt, sql.param(sql.placeholder('now'), sessions.expiresAt))))
    .limit(1),
}));

export async function userForSession(db: Db, id: string, now: Date): Promise<User | undefined> {
  // A placeholder in a comparison is bound as given, not through the column: expires_at holds ms.
  return (await statements(db).userForSession.execute({ idHash: hashToken(id), now }))[0]?.user;
}

export async function deleteSession(db: Db, id: string): Promise<void> {
  const { sessions } = tablesOf(db);
  await db.delete(sessions).where(eq(sessions.idHash, hashToken(id)));
}

/** Signs a user out everywhere: after a password change or reset, and on suspension. */
export async function revokeUserSessions(db: Db, userId: number): Promise<void> {
  const { sessions } = tablesOf(db);
  await db.delete(sessions).where(eq(sessions.userId, userId));
}

export async function deleteExpiredSessions(db: Db, now: Date): Promise<number> {
  const { sessions } = tablesOf(db);
  return (await db.delete(sessions).where(lt(sessions.expiresAt, now)).returning({ id: sessions.idHash })).length;
}
