import { and, eq, gt, isNotNull, lt, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { tablesOf, type StaffRow } from '../db/schema.js';
import { CODE_VALID_MS, MAX_WRONG_CODES, hashCode, judgeCode, newCode, type CodeVerdict } from '../destinations/destination-code.js';

// A member's new phone waits in their own row (pending_phone and its hashed code) until the code
// texted to it comes back, as the owner's notification number does in destination_codes; the
// phone confirmed before stays in use until then.

const NO_PENDING = { pendingPhone: null, phoneCodeHash: null, phoneCodeExpiresAt: null, phoneCodeWrongAttempts: 0 } as const;

/** Starts (or starts again) the confirmation of `phone` for member `id`: a fresh code replaces any earlier one. */
export async function startPhoneConfirmation(db: Db, id: number, phone: string, now: Date): Promise<string> {
  const { staff } = tablesOf(db);
  const code = newCode();
  await db
    .update(staff)
    .set({ pendingPhone: phone, phoneCodeHash: hashCode(code), phoneCodeExpiresAt: new Date(now.getTime() + CODE_VALID_MS), phoneCodeWrongAttempts: 0 })
    .where(eq(staff.id, id));
  return code;
}

/** The code could not be sent: nothing waits for it. */
export async function cancelPhoneConfirmation(db: Db, id: number): Promise<void> {
  const { staff } = tablesOf(db);
  await db.update(staff).set(NO_PENDING).where(eq(staff.id, id));
}

export type PhoneConfirmResult = { verdict: CodeVerdict; member: StaffRow } | { verdict: 'none' };

/**
 * Checks a code for member `id`. Each guess first claims one of the five attempts with one
 * conditional update (as core/destinations/pending.ts does, so guesses sent at once are judged
 * five at most); confirmed: the pending phone becomes their phone; the fifth wrong code or an
 * expired one drops the pending phone.
 */
export async function confirmPhone(db: Db, id: number, code: string, now: Date): Promise<PhoneConfirmResult> {
  const { staff } = tablesOf(db);
  const pending = and(eq(staff.id, id), isNotNull(staff.pendingPhone), isNotNull(staff.phoneCodeHash));
  const claimed = (await db
    .update(staff)
    .set({ phoneCodeWrongAttempts: sql`${staff.phoneCodeWrongAttempts} + 1` })
    .where(and(pending, lt(staff.phoneCodeWrongAttempts, MAX_WRONG_CODES), gt(staff.phoneCodeExpiresAt, now)))
    .returning())[0];
  if (!claimed) {
    const row = (await db.select().from(staff).where(pending).limit(1))[0];
    if (!row) return { verdict: 'none' };
    const expired = (row.phoneCodeExpiresAt?.getTime() ?? 0) <= now.getTime();
    await db.update(staff).set(NO_PENDING).where(and(eq(staff.id, id), eq(staff.phoneCodeHash, row.phoneCodeHash!)));
    return { verdict: expired ? 'expired' : 'too-many', member: row };
  }
  const verdict = judgeCode({ codeHash: claimed.phoneCodeHash!, expiresAt: claimed.phoneCodeExpiresAt!, wrongAttempts: claimed.phoneCodeWrongAttempts - 1 }, code, now);
  // Only this code's pending phone changes: a fresh code saved meanwhile stays.
  const thisCode = and(eq(staff.id, id), eq(staff.phoneCodeHash, claimed.phoneCodeHash!));
  if (verdict === 'confirmed') {
    const [member] = await db.update(staff).set({ phone: claimed.pendingPhone, phoneConfirmedAt: now, ...NO_PENDING }).where(thisCode).returning();
    return { verdict, member: member ?? claimed };
  }
  if (claimed.phoneCodeWrongAttempts >= MAX_WRONG_CODES) await db.update(staff).set(NO_PENDING).where(thisCode);
  return { verdict, member: claimed };
}
