import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { tablesOf } from '../../db/schema.js';

/** The name a booking's texts and events give the business. */
export async function businessName(db: Db, userId: number): Promise<string> {
  const { users } = tablesOf(db);
  const row = (await db.select({ name: users.businessName }).from(users).where(eq(users.id, userId)).limit(1))[0];
  return row?.name?.trim() || 'the business';
}
