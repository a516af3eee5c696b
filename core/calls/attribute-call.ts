import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { tablesOf } from '../db/schema.js';

/**
 * Names the call's person (calls.staff_id: the one asked for, put through to, or whom the
 * message is for) and what routing did (calls.routing_note, as Call Details shows it). The
 * last write wins: a put-through's outcome replaces the note written as the phone rang.
 */
export async function attributeCall(db: Db, callId: number, staffId: number | null, routingNote: string): Promise<void> {
  const { calls } = tablesOf(db);
  await db.update(calls).set({ staffId, routingNote }).where(eq(calls.id, callId));
}
