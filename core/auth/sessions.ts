import { and, eq, gt, lt, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { preparedPerDb } from '../db/prepared.js';
import { sessions, users, type User } from '../db/schema.js';
import { hashToken, newToken } from './tokens.js';

export const SESSION_COOKIE = 'sid';
export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;
/** Sessions kept per user: a new sign-in beyond this ends the oldest (a script signing in forever fills nothing). */
export const MAX_SESSIONS_PER_USER = 10;

export function createSession(db: Db, userId: number, now: Date): { id: string; expiresAt: Date } {
  const id = newToken();
  const expiresAt = new Date(now.getTime() + SESSION_TTL_MS);
  db.transaction(() => {
    db.insert(sessions).values({ idHash: hashToken(id), userId, createdAt: now, expiresAt }).run();
    db.run(sql`delete from sessions where user_id = ${userId} and rowid not in (
      select rowid from sessions where user_id = ${userId} order by created_at desc, rowid desc limit ${MAX_SESSIONS_PER_USER})`);
  });
  return { id, expiresAt };
}

// Every signed-in request looks its session up: compiled once, not per request.
const statements = preparedPerDb((db) => ({
  userForSession: db
    .select({ user: users })
    .from(sessions)
    .innerJoin(users, eq(sessions.userId, users.id))
    .where(and(eq(sessions.idHash, sql.placeholder('idHash')), gt(sessions.expiresAt, sql.placeholder('now'))))
    .prepare(),
}));

export function userForSession(db: Db, id: string, now: Date): User | undefined {
  // A placeholder in a comparison is bound as given, not through the column: expires_at holds ms.
  return statements(db).userForSession.get({ idHash: hashToken(id), now: now.getTime() })?.user;
}

export function deleteSession(db: Db, id: string): void {
  db.delete(sessions).where(eq(sessions.idHash, hashToken(id))).run();
}

/** Signs a user out everywhere: after a password change or reset, and on suspension. */
export function revokeUserSessions(db: Db, userId: number): void {
  db.delete(sessions).where(eq(sessions.userId, userId)).run();
}

export function deleteExpiredSessions(db: Db, now: Date): number {
  return db.delete(sessions).where(lt(sessions.expiresAt, now)).run().changes;
}
