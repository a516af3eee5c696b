import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { tablesOf } from '../db/schema.js';

/** A team member's name by their staff row: who a live call is for. */
export async function memberName(db: Db, staffId: number): Promise<string | null> {
  const { staff } = tablesOf(db);
  const rows = await db.select({ name: staff.name }).from(staff).where(eq(staff.id, staffId)).limit(1);
  return rows[0]?.name ?? null;
}
