import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { tablesOf } from '../db/schema.js';
import { hashToken, newToken } from './tokens.js';

export const RESET_TOKEN_TTL_MS = 60 * 60 * 1000;
/** A staff invitation's "set your password" link (core/team/invite.ts): a reset token that waits days, not an hour, for someone who did not ask for it. */
export const INVITE_TOKEN_TTL_MS = 7 * 24 * 60 * 60 * 1000;

export async function issueResetToken(db: Db, userId: number, now: Date, ttlMs = RESET_TOKEN_TTL_MS): Promise<string> {
  const { passwordResetTokens } = tablesOf(db);
  const token = newToken();
  await db.insert(passwordResetTokens)
    .values({ tokenHash: hashToken(token), userId, createdAt: now, expiresAt: new Date(now.getTime() + ttlMs) });
  return token;
}

/**
 * The user a token would reset, without using it up: checked before the new password is
 * hashed, so a bogus token costs a hash lookup and not an argon2 run.
 */
export async function resetTokenUser(db: Db, token: string, now: Date): Promise<number | undefined> {
  const { passwordResetTokens } = tablesOf(db);
  return (await db
    .select({ userId: passwordResetTokens.userId })
    .from(passwordResetTokens)
    .where(
      and(
        eq(passwordResetTokens.tokenHash, hashToken(token)),
        isNull(passwordResetTokens.usedAt),
        gt(passwordResetTokens.expiresAt, now),
      ),
    ).limit(1))[0]?.userId;
}

/**
 * Marks the token used and returns its user id, or undefined when it is unknown,
 * used or expired. The conditional UPDATE makes single use hold under races.
 */
export async function consumeResetToken(db: Db, token: string, now: Date): Promise<number | undefined> {
  const { passwordResetTokens } = tablesOf(db);
  const row = (await db
    .update(passwordResetTokens)
    .set({ usedAt: now })
    .where(
      and(
        eq(passwordResetTokens.tokenHash, hashToken(token)),
        isNull(passwordResetTokens.usedAt),
        gt(passwordResetTokens.expiresAt, now),
      ),
    )
    .returning({ userId: passwordResetTokens.userId }))[0];
  return row?.userId;
}

/** A new password makes every other outstanding link useless. */
export async function invalidateResetTokens(db: Db, userId: number, now: Date): Promise<void> {
  const { passwordResetTokens } = tablesOf(db);
  await db.update(passwordResetTokens)
    .set({ usedAt: now })
    .where(and(eq(passwordResetTokens.userId, userId), isNull(passwordResetTokens.usedAt)));
}
