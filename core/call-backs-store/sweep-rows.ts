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
 * The tries made since `since`, the business's and the box's, as the caps count them: every try
 * of each call-back whose last try falls in the window, all at the last try's instant. A row keeps
 * only its last try's time, so a first try is counted as late as its second: the caps may hold a
 * call-back a little longer than needed, never let one more through than they allow.
 */
export async function recentCallBackTries(db: Db, userId: number, since: Date): Promise<{ owner: Date[]; box: Date[] }> {
  const { callBacks } = tablesOf(db);
  const rows = await db
    .select({ userId: callBacks.userId, at: callBacks.lastTryAt, tries: callBacks.tries })
    .from(callBacks)
    .where(and(isNotNull(callBacks.lastTryAt), gte(callBacks.lastTryAt, since)));
  const each = (list: typeof rows) => list.flatMap((r) => Array.from({ length: Math.max(1, r.tries) }, () => r.at!));
  return { owner: each(rows.filter((r) => r.userId === userId)), box: each(rows) };
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
