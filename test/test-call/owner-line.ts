import { eq } from 'drizzle-orm';
import { phoneNumbers, users, type NewUser } from '../../core/db/schema.js';
import { activeCustomer } from '../helpers/accounts.js';
import type { TestServer } from '../helpers/server.js';

/**
 * A signed-in, active owner (signed up and approved through the API, as test calls need a
 * session) whose number is `did`, with `fields` (e.g. aiMode, knowledgeBase) set on the account.
 */
export async function ownerWithLine(server: TestServer, did: string, signup: Record<string, string> = {}, fields: Partial<NewUser> = {}) {
  const owner = await activeCustomer(server, signup);
  const db = server.database.db;
  await db.insert(phoneNumbers).values({ phoneNumber: did, provider: 'static', providerSid: did, userId: owner.user.id, assignedAt: new Date() });
  if (Object.keys(fields).length) await db.update(users).set(fields).where(eq(users.id, owner.user.id));
  return { ...owner, did };
}
