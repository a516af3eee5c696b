import { and, eq, isNull } from 'drizzle-orm';
import { toE164 } from '../../contract/phone.js';
import type { Db } from '../db/client.js';
import { tablesOf } from '../db/schema.js';
import { confirmedTextNumber } from '../notify/policy.js';

/**
 * Whether `number` (E.164) is one of the business's own: the owner's phone their texts go to
 * (the notification number), their sign-up phone once confirmed, the phone calls are put
 * through to, or a number the business holds. A call from one is the owner trying their own
 * line, never a caller to say sorry to (issue 53). Staff's phones belong here once there are staff.
 */
export async function isBusinessOwnNumber(db: Db, userId: number, number: string): Promise<boolean> {
  const { phoneNumbers, users } = tablesOf(db);
  const owner = (await db.select().from(users).where(eq(users.id, userId)).limit(1))[0];
  if (!owner) return false;
  const confirmedSignUpPhone = owner.phoneConfirmedAt ? owner.phoneNumber : null;
  const own = [confirmedTextNumber(owner), confirmedSignUpPhone, owner.forwardToNumber].map((n) => toE164(n));
  if (own.includes(number)) return true;
  const held = await db.select({ id: phoneNumbers.id }).from(phoneNumbers)
    .where(and(eq(phoneNumbers.userId, userId), eq(phoneNumbers.phoneNumber, number), isNull(phoneNumbers.releasedAt))).limit(1);
  return held.length > 0;
}
