import { eq } from 'drizzle-orm';
import { tablesOf, type NewUser } from '../../core/db/schema.js';
import { activeCustomer } from '../helpers/accounts.js';
import type { ApiClient } from '../helpers/client.js';
import type { TestServer } from '../helpers/server.js';
import { waitUntil } from '../helpers/wait.js';
import type { Credentials } from './sip-ws-client.js';

/**
 * A signed-in, active owner (signed up and approved through the API, as test calls need a
 * session) whose number is `did`, with `fields` (e.g. aiMode, knowledgeBase) set on the account.
 */
export async function ownerWithLine(server: TestServer, did: string, signup: Record<string, string> = {}, fields: Partial<NewUser> = {}) {
  const owner = await activeCustomer(server, signup);
  const db = server.database.db;
  const { phoneNumbers, users } = tablesOf(db);
  await db.insert(phoneNumbers).values({ phoneNumber: did, provider: 'static', providerSid: did, userId: owner.user.id, assignedAt: new Date() });
  if (Object.keys(fields).length) await db.update(users).set(fields).where(eq(users.id, owner.user.id));
  return { ...owner, did };
}

/**
 * Presses "Call my line" and returns the call's credentials. The core withdraws a call's
 * endpoint once its socket has closed, and until then the owner's next press waits (409); it is also what bench/call-my-line.ts imports, so it uses no vitest API.
 */
export function pressCallMyLine(client: ApiClient): Promise<Credentials> {
  return waitUntil(async () => {
    const res = await client.post<Credentials>('/api/test-call');
    if (res.status !== 200) throw new Error(`POST /api/test-call answered ${res.status}: ${res.text}`);
    return res.body;
  }, 10_000);
}
