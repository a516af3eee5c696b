import { tablesOf, type NewUser } from '../../core/db/schema.js';
import type { Db } from '../../core/db/client.js';

let didSeq = 0;

/** An active business with its own static DID (unique per test process), as the real-PBX harnesses need. */
export async function insertBusiness(db: Db, fields: Partial<NewUser> = {}): Promise<{ userId: number; did: string }> {
  const { phoneNumbers, users } = tablesOf(db);
  const n = ++didSeq;
  const did = `+4477009${String(process.pid % 100).padStart(2, '0')}${String(n).padStart(3, '0')}`;
  const user = (await db
    .insert(users)
    .values({ email: `owner${n}-${process.pid}@example.co.uk`, passwordHash: 'x', accountStatus: 'active', ...fields })
    .returning())[0]!;
  await db.insert(phoneNumbers).values({ phoneNumber: did, provider: 'static', providerSid: did, userId: user.id, assignedAt: new Date() });
  return { userId: user.id, did };
}
