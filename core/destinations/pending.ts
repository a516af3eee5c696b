import { and, eq, gt, isNull, lt, sql, type SQL } from 'drizzle-orm';
import type { DestinationKind } from '../../contract/schemas/destinations.js';
import type { Db } from '../db/client.js';
import { tablesOf } from '../db/schema.js';
import { transaction } from '../db/transaction.js';
import { CODE_VALID_MS, MAX_WRONG_CODES, hashCode, judgeCode, newCode, type CodeVerdict } from './destination-code.js';

/** Starts (or starts again) the confirmation of `destination`: a fresh code replaces any earlier one. */
export async function startConfirmation(db: Db, userId: number, kind: DestinationKind, destination: string, now: Date): Promise<string> {
  const { destinationCodes } = tablesOf(db);
  const code = newCode();
  const fresh = { destination, codeHash: hashCode(code), expiresAt: new Date(now.getTime() + CODE_VALID_MS), wrongAttempts: 0, createdAt: now };
  await db
    .insert(destinationCodes)
    .values({ userId, kind, ...fresh })
    .onConflictDoUpdate({ target: [destinationCodes.userId, destinationCodes.kind], set: fresh });
  return code;
}

export async function cancelConfirmation(db: Db, userId: number, kind: DestinationKind): Promise<void> {
  const { destinationCodes } = tablesOf(db);
  await db.delete(destinationCodes).where(and(eq(destinationCodes.userId, userId), eq(destinationCodes.kind, kind)));
}

/** What is waiting for a code and still can be confirmed. */
export async function pendingDestinations(db: Db, userId: number, now: Date) {
  const { destinationCodes } = tablesOf(db);
  return db
    .select({ kind: destinationCodes.kind, destination: destinationCodes.destination, expiresAt: destinationCodes.expiresAt })
    .from(destinationCodes)
    .where(and(eq(destinationCodes.userId, userId), gt(destinationCodes.expiresAt, now)));
}

export type ConfirmResult = { verdict: CodeVerdict; destination: string } | { verdict: 'none' };

/**
 * Checks a code. Confirmed: the destination becomes the owner's (users row) and the pending
 * row goes. Wrong: counted, and the fifth wrong code drops the pending change; expired too.
 *
 * Each guess first claims one of the five attempts with a single conditional update (counted
 * only while fewer than five were taken and the code is still valid), and only a guess that
 * got an attempt is judged. The database takes the claims one at a time on either engine, so
 * 60 guesses sent at once over several cores have five judged, not as many as read the row
 * before any of them wrote (test/destinations/two-cores-codes.test.ts). The count therefore
 * includes the right code's own attempt; it removes the row, so no one sees that.
 */
export async function confirmDestination(db: Db, userId: number, kind: DestinationKind, code: string, now: Date): Promise<ConfirmResult> {
  const { destinationCodes, users } = tablesOf(db);
  const where = and(eq(destinationCodes.userId, userId), eq(destinationCodes.kind, kind));
  const claimed = (await db
    .update(destinationCodes)
    .set({ wrongAttempts: sql`${destinationCodes.wrongAttempts} + 1` })
    .where(and(where, lt(destinationCodes.wrongAttempts, MAX_WRONG_CODES), gt(destinationCodes.expiresAt, now)))
    .returning())[0];
  if (!claimed) return refuseUnclaimed(db, where, now);
  // Judged as it stood before this attempt was counted.
  const verdict = judgeCode({ ...claimed, wrongAttempts: claimed.wrongAttempts - 1 }, code, now);
  // Only this code's row goes: a fresh code saved meanwhile stays.
  const thisCode = and(where, eq(destinationCodes.codeHash, claimed.codeHash));
  if (verdict === 'confirmed') {
    await transaction(db, async () => {
      await db.update(users).set(kind === 'sms' ? { notificationNumber: claimed.destination } : { summaryEmail: claimed.destination }).where(eq(users.id, userId));
      // The sign-up phone's own code (texted at approval, core/destinations/signup-phone.ts) confirms it as well.
      if (kind === 'sms') await db.update(users).set({ phoneConfirmedAt: now }).where(and(eq(users.id, userId), eq(users.phoneNumber, claimed.destination), isNull(users.phoneConfirmedAt)));
      await db.delete(destinationCodes).where(thisCode);
    });
  } else if (claimed.wrongAttempts >= MAX_WRONG_CODES) {
    await db.delete(destinationCodes).where(thisCode);
  }
  return { verdict, destination: claimed.destination };
}

/** No attempt was left to claim: nothing waits, or the code expired, or its attempts are used up (then the pending change goes). */
async function refuseUnclaimed(db: Db, where: SQL | undefined, now: Date): Promise<ConfirmResult> {
  const { destinationCodes } = tablesOf(db);
  const row = (await db.select().from(destinationCodes).where(where).limit(1))[0];
  if (!row) return { verdict: 'none' };
  const expired = row.expiresAt.getTime() <= now.getTime();
  // A fresh code saved between the claim and this read is neither: it waits for its own guesses.
  if (!expired && row.wrongAttempts < MAX_WRONG_CODES) return { verdict: 'too-many', destination: row.destination };
  await db.delete(destinationCodes).where(and(where, eq(destinationCodes.codeHash, row.codeHash)));
  return { verdict: expired ? 'expired' : 'too-many', destination: row.destination };
}

/** The owner's own appliance number, which texts them: the code comes from the same sender as their notifications. */
export async function ownerNumber(db: Db, userId: number): Promise<string | undefined> {
  const { phoneNumbers } = tablesOf(db);
  const row = (await db.select({ n: phoneNumbers.phoneNumber }).from(phoneNumbers).where(and(eq(phoneNumbers.userId, userId), isNull(phoneNumbers.releasedAt))).limit(1))[0];
  return row?.n;
}
