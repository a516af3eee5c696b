import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { passwordResetTokens } from '../db/schema.js';
import { hashToken, newToken } from './tokens.js';

export const RESET_TOKEN_TTL_MS = 60 * 60 * 1000;

export function issueResetToken(db: Db, userId: number, now: Date): string {
  const token = newToken();
  db.insert(passwordResetTokens)
    .values({ tokenHash: hashToken(token), userId, createdAt: now, expiresAt: new Date(now.getTime() + RESET_TOKEN_TTL_MS) })
    .run();
  return token;
}

/**
 * The user a token would reset, without using it up: checked before the new password is
 * hashed, so a bogus token costs a hash lookup and not an argon2 run.
 */
export function resetTokenUser(db: Db, token: string, now: Date): number | undefined {
  return db
    .select({ userId: passwordResetTokens.userId })
    .from(passwordResetTokens)
    .where(
      and(
        eq(passwordResetTokens.tokenHash, hashToken(token)),
        isNull(passwordResetTokens.usedAt),
        gt(passwordResetTokens.expiresAt, now),
      ),
    )
    .get()?.userId;
}

/**
 * Marks the token used and returns its user id, or undefined when it is unknown,
 * used or expired. The conditional UPDATE makes single use hold under races.
 */
export function consumeResetToken(db: Db, token: string, now: Date): number | undefined {
  const row = db
    .update(passwordResetTokens)
    .set({ usedAt: now })
    .where(
      and(
        eq(passwordResetTokens.tokenHash, hashToken(token)),
        isNull(passwordResetTokens.usedAt),
        gt(passwordResetTokens.expiresAt, now),
      ),
    )
    .returning({ userId: passwordResetTokens.userId })
    .get();
  return row?.userId;
}

/** A new password makes every other outstanding link useless. */
export function invalidateResetTokens(db: Db, userId: number, now: Date): void {
  db.update(passwordResetTokens)
    .set({ usedAt: now })
    .where(and(eq(passwordResetTokens.userId, userId), isNull(passwordResetTokens.usedAt)))
    .run();
}
