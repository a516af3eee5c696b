import { eq } from 'drizzle-orm';
import { isWithheldCaller } from '../../contract/withheld.js';
import type { Db } from '../db/client.js';
import { tablesOf } from '../db/schema.js';
import { loadCallHandling } from '../call-handling/store.js';
import { periodAt } from '../call-handling/schedule.js';
import { hasBeenInTouch } from '../caller-texts/store.js';

/** What the owner's routing rules ask of a call in progress besides its team (dialogue/agent/routing-rule-match.ts). */
export interface CallRoutingFacts {
  /** The number called, texted or booked before this call; null when withheld (neither new nor existing). */
  knownCaller: boolean | null;
  /** Outside the business's opening hours (call handling's hours and bank holidays). */
  closed: boolean;
}

/** Two indexed reads besides the call's row: the caller's earlier contact and the opening hours. */
export async function callRoutingFacts(db: Db, userId: number, callId: number, now: Date): Promise<CallRoutingFacts> {
  const { calls } = tablesOf(db);
  const call = (await db.select({ from: calls.fromNumber }).from(calls).where(eq(calls.id, callId)).limit(1))[0];
  const from = call?.from ?? null;
  const [knownCaller, handling] = await Promise.all([
    from === null || isWithheldCaller(from) ? Promise.resolve(null) : hasBeenInTouch(db, userId, from, callId),
    loadCallHandling(db, userId),
  ]);
  return { knownCaller, closed: periodAt(handling, now) === 'closed' };
}
