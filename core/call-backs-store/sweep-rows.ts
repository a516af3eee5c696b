import { and, eq, gte, isNotNull } from 'drizzle-orm';
import type { CallBackState } from '../../contract/call-backs.js';
import type { Db } from '../db/client.js';
import { tablesOf, type CallBackRow } from '../db/schema.js';

// The rows the dialler's sweep (core/call-backs-dial) needs besides claim.ts's: closing a claimed
// call-back the rules will never dial, the tries made lately (the caps count them), and the
// owner's window (a missed call the owner has not rung back within N minutes).

/** Why a claimed call-back closes without a dial: the owner dealt with it, the tries ran out, or the rules forbid the number. */
export type CloseAs = { state: Extract<CallBackState, 'done'>; doneBy: 'owner' } | { state: Extract<CallBackState, 'no-answer' | 'cancelled'>; doneBy: 'agent' };

/** Closes a claimed call-back for good. False when it was not being dialled (nothing changed). */
export async function closeCallBack(db: Db, id: number, as: CloseAs, now: Date): Promise<boolean> {
  const { callBacks } = tablesOf(db);
  const rows = await db
    .update(callBacks)
    .set({ state: as.state, doneBy: as.doneBy, updatedAt: now })
    .where(and(eq(callBacks.id, id), eq(callBacks.state, 'calling')))
    .returning({ id: callBacks.id });
  return rows.length === 1;
}

/**
 * The tries made since `since`, the business's and the box's, as the caps count them: each
 * call-back's last try (a first try's instant is replaced by its second's, so a capped box
 * errs towards dialling one more, never towards a flood: two tries per call-back at most).
 */
export async function recentCallBackTries(db: Db, userId: number, since: Date): Promise<{ owner: Date[]; box: Date[] }> {
  const { callBacks } = tablesOf(db);
  const rows = await db
    .select({ userId: callBacks.userId, at: callBacks.lastTryAt })
    .from(callBacks)
    .where(and(isNotNull(callBacks.lastTryAt), gte(callBacks.lastTryAt, since)));
  const box = rows.map((r) => r.at!);
  return { owner: rows.filter((r) => r.userId === userId).map((r) => r.at!), box };
}

/**
 * The owner's window ran out (their setting 'agent-after'): the agent rings the caller of a
 * missed call or voicemail at `dueAt`. A call-back the caller already agreed in the call (the
 * agent's words, a voicemail's "ring me after four") keeps its own time: nothing is added or moved.
 */
export async function recordOwnerWindowCallBack(db: Db, w: { userId: number; firstCallId: number; callerNumber: string; dueAt: Date; staffId: number | null }, now: Date): Promise<CallBackRow | undefined> {
  const { callBacks } = tablesOf(db);
  const [row] = await db
    .insert(callBacks)
    .values({ userId: w.userId, firstCallId: w.firstCallId, callerNumber: w.callerNumber, askedAt: now, dueAt: w.dueAt, source: 'owner-window', staffId: w.staffId, updatedAt: now })
    .onConflictDoNothing({ target: callBacks.firstCallId })
    .returning();
  return row;
}
