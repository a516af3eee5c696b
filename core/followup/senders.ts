import { and, eq, inArray, isNotNull, isNull } from 'drizzle-orm';
import { toE164 } from '../../contract/phone.js';
import type { Db } from '../db/client.js';
import { tablesOf, type User } from '../db/schema.js';
import { confirmedTextNumber } from '../notify/policy.js';
import { widestRolePerBusiness, type SenderRole } from './which-business.js';

/** A phone that may text commands, in one business: its owner, or one of its team on their confirmed phone. */
export interface Sender extends SenderRole {
  owner: User;
}

/**
 * Who sent a text, one role per business (which-business.ts): the owners whose notification
 * number (or, without one, confirmed sign-up business phone: where their summaries go,
 * core/notify/policy.ts) it is, and the businesses whose current team member has it as their
 * confirmed phone (issue 58). Several businesses are told apart by the number texted; if that
 * does not decide, all of them are returned and the text must name its business, never acted
 * on for the wrong one.
 */
export async function sendersForNumber(db: Db, from: string, to: string, canAct: (u: User) => boolean): Promise<Sender[]> {
  const { phoneNumbers, staff, users } = tablesOf(db);
  const owners: Sender[] = (await db.select().from(users).where(eq(users.role, 'customer')))
    .filter((u) => canAct(u) && toE164(confirmedTextNumber(u)) === from)
    .map((owner) => ({ businessId: owner.id, member: null, owner }));
  const members = await db
    .select({ id: staff.id, name: staff.name, view: staff.view, businessId: staff.userId })
    .from(staff)
    .where(and(eq(staff.phone, from), isNotNull(staff.phoneConfirmedAt), isNull(staff.removedAt), eq(staff.isOwner, false)));
  const theirOwners = members.length
    ? await db.select().from(users).where(and(eq(users.role, 'customer'), inArray(users.id, members.map((m) => m.businessId))))
    : [];
  const asMembers: Sender[] = members.flatMap(({ businessId, ...member }) => {
    const owner = theirOwners.find((u) => u.id === businessId);
    return owner && canAct(owner) ? [{ businessId, member, owner }] : [];
  });
  const matches = widestRolePerBusiness([...owners, ...asMembers]);
  if (matches.length <= 1) return matches;
  const [did] = await db
    .select({ userId: phoneNumbers.userId })
    .from(phoneNumbers)
    .where(and(eq(phoneNumbers.phoneNumber, to), isNull(phoneNumbers.releasedAt)))
    .limit(1);
  const texted = matches.find((s) => s.businessId === did?.userId);
  return texted ? [texted] : matches;
}
