import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { tablesOf } from '../db/schema.js';

/**
 * Names the person a call is for, was put through to or was answered by (calls.staff_id, null
 * for nobody in particular) and what routing did, in the words Call Details shows. The last
 * word wins: a call first rung round the team, then put through, says where it ended up.
 */
export async function attributeCall(db: Db, callId: number, staffId: number | null, routingNote: string): Promise<void> {
  const { calls } = tablesOf(db);
  await db.update(calls).set({ staffId, routingNote }).where(eq(calls.id, callId));
}
