import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { DestinationKind } from '../../contract/schemas/destinations.js';
import type { Db } from '../db/client.js';
import { destinationCodes, phoneNumbers, users } from '../db/schema.js';
import { CODE_VALID_MS, MAX_WRONG_CODES, hashCode, judgeCode, newCode, type CodeVerdict } from './destination-code.js';

/** Starts (or starts again) the confirmation of `destination`: a fresh code replaces any earlier one. */
export async function startConfirmation(db: Db, userId: number, kind: DestinationKind, destination: string, now: Date): Promise<string> {
  const code = newCode();
  const fresh = { destination, codeHash: hashCode(code), expiresAt: new Date(now.getTime() + CODE_VALID_MS), wrongAttempts: 0, createdAt: now };
  await db
    .insert(destinationCodes)
    .values({ userId, kind, ...fresh })
    .onConflictDoUpdate({ target: [destinationCodes.userId, destinationCodes.kind], set: fresh });
  return code;
}

export async function cancelConfirmation(db: Db, userId: number, kind: DestinationKind): Promise<void> {
  await db.delete(destinationCodes).where(and(eq(destinationCodes.userId, userId), eq(destinationCodes.kind, kind)));
}

/** What is waiting for a code and still can be confirmed. */
export async function pendingDestinations(db: Db, userId: number, now: Date) {
  return db
    .select({ kind: destinationCodes.kind, destination: destinationCodes.destination, expiresAt: destinationCodes.expiresAt })
    .from(destinationCodes)
    .where(and(eq(destinationCodes.userId, userId), gt(destinationCodes.expiresAt, now)));
}

export type ConfirmResult = { verdict: CodeVerdict; destination: string } | { verdict: 'none' };

/**
 * Checks a code. Confirmed: the destination becomes the owner's (users row) and the pending
 * row goes. Wrong: counted, and the fifth wrong code drops the pending change; expired too.
 */
export async function confirmDestination(db: Db, userId: number, kind: DestinationKind, code: string, now: Date): Promise<ConfirmResult> {
  const where = and(eq(destinationCodes.userId, userId), eq(destinationCodes.kind, kind));
  const row = (await db.select().from(destinationCodes).where(where).limit(1))[0];
  if (!row) return { verdict: 'none' };
  const verdict = judgeCode(row, code, now);
  if (verdict === 'confirmed') {
    await db.update(users).set(kind === 'sms' ? { notificationNumber: row.destination } : { summaryEmail: row.destination }).where(eq(users.id, userId));
  }
  if (verdict === 'wrong' && row.wrongAttempts + 1 < MAX_WRONG_CODES) {
    await db.update(destinationCodes).set({ wrongAttempts: sql`${destinationCodes.wrongAttempts} + 1` }).where(where);
  } else {
    await db.delete(destinationCodes).where(where);
  }
  return { verdict, destination: row.destination };
}

/** The owner's own appliance number, which texts them: the code comes from the same sender as their notifications. */
export async function ownerNumber(db: Db, userId: number): Promise<string | undefined> {
  const row = (await db.select({ n: phoneNumbers.phoneNumber }).from(phoneNumbers).where(and(eq(phoneNumbers.userId, userId), isNull(phoneNumbers.releasedAt))).limit(1))[0];
  return row?.n;
}
