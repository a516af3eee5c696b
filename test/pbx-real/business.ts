import { tablesOf, type NewUser } from '../../core/db/schema.js';
import type { Db } from '../../core/db/client.js';

let didSeq = 0;

/** An active business with its own static DID (unique per test process), as the real-PBX harnesses need. */
export async function insertBusiness(db: Db, fields: Partial<NewUser> = {}): Promise<{ userId: number; did: string }> {
  const { users } = tablesOf(db);
  const n = ++didSeq;
  const user = (await db
    .insert(users)
    .values({ email: `owner${n}-${process.pid}@example.co.uk`, passwordHash: 'x', accountStatus: 'active', ...fields })
    .returning())[0]!;
  return { userId: user.id, did: await giveDid(db, user.id, n) };
}

/** A static DID (unique per test process) for an account made another way, e.g. signed up through the API. */
export async function giveDid(db: Db, userId: number, n = ++didSeq): Promise<string> {
  const { phoneNumbers } = tablesOf(db);
  const did = `+4477009${String(process.pid % 100).padStart(2, '0')}${String(n).padStart(3, '0')}`;
  await db.insert(phoneNumbers).values({ phoneNumber: did, provider: 'static', providerSid: did, userId, assignedAt: new Date() });
  return did;
}
