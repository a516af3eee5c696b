import { and, asc, eq, inArray, lt, lte, notInArray, sql } from 'drizzle-orm';
import type { CallBackOutcome } from '../../contract/call-backs.js';
import type { Db } from '../db/client.js';
import { tablesOf, type CallBackRow } from '../db/schema.js';
import { transaction } from '../db/transaction.js';
import { lockedForClaim } from '../jobs/queue.js';

// The dialler's side of the call_backs table: take the due ones, put back what the rules say
// must wait, and record how each try went. Whether a number may be dialled now is not decided
// here (core/call-backs/may-dial.ts): this only keeps two cores from dialling one caller.

/**
 * Takes up to `limit` call-backs that are waiting and due, as 'calling'. One statement, as the
 * job queue's claim: the UPDATE re-checks 'waiting' on each row, so of two claimers (two cores,
 * or a core and its own ghost) only one gets a row; on PostgreSQL the pick skips rows another
 * claimer has locked, so concurrent claimers take different rows instead of queueing.
 */
export async function claimDueCallBacks(db: Db, now: Date, limit = 5): Promise<CallBackRow[]> {
  const { callBacks } = tablesOf(db);
  const due = db
    .select({ id: callBacks.id })
    .from(callBacks)
    .where(and(eq(callBacks.state, 'waiting'), lte(callBacks.dueAt, now)))
    .orderBy(asc(callBacks.dueAt), asc(callBacks.id))
    .limit(limit);
  return db
    .update(callBacks)
    .set({ state: 'calling', updatedAt: now })
    .where(and(inArray(callBacks.id, lockedForClaim(db, due)), eq(callBacks.state, 'waiting')))
    .returning();
}

/**
 * Call-backs left 'calling' by a core that stopped mid-dial (a crash, a restart) would wait for
 * nobody: those claimed before `claimedBefore`, and not among `inFlight` (this core's own dials),
 * go back to waiting, due now, with that dial counted as a failed try at its claim. Counting it
 * keeps the promise of at most two rings even when the lost dial did ring; the rules then decide
 * as for any failed try (one more, 30 minutes after it). Returns the ids released.
 */
export async function releaseStuckCallBacks(db: Db, now: Date, claimedBefore: Date, inFlight: readonly number[]): Promise<number[]> {
  const { callBacks } = tablesOf(db);
  const rows = await db
    .update(callBacks)
    .set({ state: 'waiting', dueAt: now, tries: sql`${callBacks.tries} + 1`, lastTryAt: sql`${callBacks.updatedAt}`, lastOutcome: 'failed', updatedAt: now })
    .where(and(eq(callBacks.state, 'calling'), lt(callBacks.updatedAt, claimedBefore), ...(inFlight.length ? [notInArray(callBacks.id, [...inFlight])] : [])))
    .returning({ id: callBacks.id });
  return rows.map((r) => r.id);
}

/** A claimed call-back the rules say must wait (outside hours, a cap reached): back to waiting until `until`, no try counted. */
export async function postponeCallBack(db: Db, id: number, until: Date, now: Date): Promise<boolean> {
  const { callBacks } = tablesOf(db);
  const rows = await db
    .update(callBacks)
    .set({ state: 'waiting', dueAt: until, updatedAt: now })
    .where(and(eq(callBacks.id, id), eq(callBacks.state, 'calling'), sql`${callBacks.doneBy} is null`))
    .returning({ id: callBacks.id });
  return rows.length === 1;
}

export interface CallBackTry {
  outcome: CallBackOutcome;
  /** When the dialling started. */
  at: Date;
  /** The outbound call's own row, when one was written. */
  callId?: number | null;
  /** When the next try is due (the rules allow one), or null: this was the last. */
  retryAt: Date | null;
}

/** Someone answered: the caller, or a person who said it was the wrong number or not wanted. */
const REACHED: ReadonlySet<CallBackOutcome> = new Set(['answered', 'wrong-number', 'not-interested']);

/**
 * Records one try of a claimed call-back: counted, its outcome kept. With `retryAt` it waits for
 * the next try, unless the owner rang the caller back meanwhile (then it is theirs, done); without,
 * it closes as answered (a person came to the phone) or no-answer, done by the agent. Returns the
 * row, or undefined when it was not being dialled (nothing is changed then).
 */
export async function recordCallBackTry(db: Db, id: number, t: CallBackTry, now: Date): Promise<CallBackRow | undefined> {
  const { callBacks } = tablesOf(db);
  return transaction(db, async () => {
    const row = (await db.select().from(callBacks).where(eq(callBacks.id, id)).limit(1))[0];
    if (!row || row.state !== 'calling') return undefined;
    const ownerFirst = row.doneBy === 'owner';
    const next =
      t.retryAt && !ownerFirst
        ? { state: 'waiting' as const, dueAt: t.retryAt }
        : { state: ownerFirst ? ('done' as const) : REACHED.has(t.outcome) ? ('answered' as const) : ('no-answer' as const), doneBy: row.doneBy ?? ('agent' as const) };
    return (await db
      .update(callBacks)
      .set({ ...next, tries: row.tries + 1, lastTryAt: t.at, lastOutcome: t.outcome, callBackCallId: t.callId ?? row.callBackCallId, updatedAt: now })
      .where(and(eq(callBacks.id, id), eq(callBacks.state, 'calling')))
      .returning())[0];
  });
}
