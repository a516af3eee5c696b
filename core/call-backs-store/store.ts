import { and, desc, eq, inArray } from 'drizzle-orm';
import type { ApiCallBack } from '../../contract/api.js';
import type { CallBackSource, CallBackState } from '../../contract/call-backs.js';
import type { Db } from '../db/client.js';
import { tablesOf, type CallBackRow, type Tables } from '../db/schema.js';
import { lockOwner, transaction } from '../db/transaction.js';
import { callFallbackWords, firstLine } from '../push/alert-words.js';

/** Whose call-backs a request sees: the business's, and for a staff sign-in with view 'own' only theirs. */
export interface CallBackScope {
  userId: number;
  staffId?: number;
}

/** A caller's wish to be rung back, from a call (once per call) or a CALL reply to the missed-call text. */
export type CallBackWish = {
  userId: number;
  callerNumber: string;
  dueAt: Date;
  source: CallBackSource;
  staffId?: number | null;
} & ({ firstCallId: number } | { textId: number });

/** The most a tracker list shows: a business with more waiting than this has a bigger problem than a list. */
const LIST_LIMIT = 200;

const inScope = (t: Tables['callBacks'], scope: CallBackScope, id?: number) =>
  and(id === undefined ? undefined : eq(t.id, id), eq(t.userId, scope.userId), scope.staffId === undefined ? undefined : eq(t.staffId, scope.staffId));

/**
 * Records a caller's wish. Idempotent: a second wish in the same call (the caller changed their
 * mind, the voicemail's summary after the agent's words) moves the time of the one call-back,
 * and a CALL reply moves the number's call-back still waiting; neither adds a row. A call-back
 * already dialled, answered or closed keeps its time: the wish is answered by what it shows.
 */
export async function recordCallBackWish(db: Db, wish: CallBackWish, now: Date): Promise<CallBackRow> {
  const { callBacks } = tablesOf(db);
  const values = {
    userId: wish.userId,
    callerNumber: wish.callerNumber,
    askedAt: now,
    dueAt: wish.dueAt,
    source: wish.source,
    staffId: wish.staffId ?? null,
    updatedAt: now,
  };
  const moved = { dueAt: wish.dueAt, updatedAt: now };
  if ('firstCallId' in wish) {
    const [row] = await db
      .insert(callBacks)
      .values({ ...values, firstCallId: wish.firstCallId })
      .onConflictDoUpdate({ target: callBacks.firstCallId, set: moved, setWhere: eq(callBacks.state, 'waiting') })
      .returning();
    return row ?? (await db.select().from(callBacks).where(eq(callBacks.firstCallId, wish.firstCallId)).limit(1))[0]!;
  }
  return transaction(db, async () => {
    // Two CALL replies racing from one number queue here, so the second finds the first's row.
    await lockOwner(db, wish.userId);
    const waiting = (await db
      .select()
      .from(callBacks)
      .where(and(eq(callBacks.userId, wish.userId), eq(callBacks.callerNumber, wish.callerNumber), eq(callBacks.state, 'waiting')))
      .orderBy(desc(callBacks.id))
      .limit(1))[0];
    if (waiting) return (await db.update(callBacks).set(moved).where(eq(callBacks.id, waiting.id)).returning())[0]!;
    const [row] = await db
      .insert(callBacks)
      .values({ ...values, textId: wish.textId })
      .onConflictDoUpdate({ target: callBacks.textId, set: moved, setWhere: eq(callBacks.state, 'waiting') })
      .returning();
    return row ?? (await db.select().from(callBacks).where(eq(callBacks.textId, wish.textId)).limit(1))[0]!;
  });
}

/** The tracker's list: a business's call-backs, newest first, each with its first call's summary line. */
export async function listCallBacks(db: Db, scope: CallBackScope): Promise<ApiCallBack[]> {
  const { callBacks, calls } = tablesOf(db);
  const rows = await db
    .select({ callBack: callBacks, aiSummary: calls.aiSummary, status: calls.status, mode: calls.mode })
    .from(callBacks)
    .leftJoin(calls, eq(calls.id, callBacks.firstCallId))
    .where(inScope(callBacks, scope))
    .orderBy(desc(callBacks.createdAt), desc(callBacks.id))
    .limit(LIST_LIMIT);
  return rows.map((r) => toApiCallBack(r.callBack, r.status === null ? null : { aiSummary: r.aiSummary, status: r.status, mode: r.mode ?? 'voicemail' }));
}

/** One call-back as the tracker shows it; undefined when it is not in the scope (another business's answers as a missing one). */
async function ownedCallBack(db: Db, scope: CallBackScope, id: number): Promise<ApiCallBack | undefined> {
  const { callBacks, calls } = tablesOf(db);
  const r = (await db
    .select({ callBack: callBacks, aiSummary: calls.aiSummary, status: calls.status, mode: calls.mode })
    .from(callBacks)
    .leftJoin(calls, eq(calls.id, callBacks.firstCallId))
    .where(inScope(callBacks, scope, id))
    .limit(1))[0];
  return r && toApiCallBack(r.callBack, r.status === null ? null : { aiSummary: r.aiSummary, status: r.status, mode: r.mode ?? 'voicemail' });
}

function toApiCallBack(row: CallBackRow, first: { aiSummary: string | null; status: string; mode: string } | null): ApiCallBack {
  const summary = first ? firstLine(first.aiSummary) || callFallbackWords(first.status, first.mode) : row.source === 'text-reply' ? 'Replied CALL to your text' : 'Asked to be rung back';
  return {
    id: row.id,
    state: row.state,
    source: row.source,
    askedAt: row.askedAt.toISOString(),
    dueAt: row.dueAt.toISOString(),
    tries: row.tries,
    lastTryAt: row.lastTryAt ? row.lastTryAt.toISOString() : null,
    lastOutcome: row.lastOutcome,
    doneBy: row.doneBy,
    callerNumber: row.callerNumber,
    firstCallId: row.firstCallId,
    callBackCallId: row.callBackCallId,
    staffId: row.staffId,
    summary,
  };
}

/** What an owner's cancel or take did: changed it, found none in their scope, or found it where it may not change (its state). */
export type OwnerAction = { kind: 'changed'; callBack: ApiCallBack } | { kind: 'missing' } | { kind: 'refused'; state: CallBackState };

/**
 * The owner's two actions, each one conditional UPDATE (so a claim by the dialler at the same
 * moment either wins, and the owner is told it is calling, or loses and finds it closed):
 * cancel a waiting call-back; take it themselves (waiting, given up with no answer, or
 * cancelled), which closes it as done by the owner.
 */
const ACTIONS = {
  cancel: { from: ['waiting'], to: { state: 'cancelled', doneBy: 'owner-cancelled' } },
  take: { from: ['waiting', 'no-answer', 'cancelled'], to: { state: 'done', doneBy: 'owner' } },
} as const;

export async function ownerCallBackAction(db: Db, scope: CallBackScope, id: number, action: keyof typeof ACTIONS, now: Date): Promise<OwnerAction> {
  const { callBacks } = tablesOf(db);
  const { from, to } = ACTIONS[action];
  const changed = await db
    .update(callBacks)
    .set({ ...to, updatedAt: now })
    .where(and(inScope(callBacks, scope, id), inArray(callBacks.state, [...from])))
    .returning({ id: callBacks.id });
  const callBack = await ownedCallBack(db, scope, id);
  if (!callBack) return { kind: 'missing' };
  return changed.length === 1 ? { kind: 'changed', callBack } : { kind: 'refused', state: callBack.state };
}

/**
 * The owner rang the caller back first (Mark called back, DONE by text): the call's waiting
 * call-back is done by the owner, and one being dialled right now is marked so that its outcome
 * closes it rather than arming a second try (recordCallBackTry).
 */
export async function ownerCalledBack(db: Db, userId: number, callId: number, now: Date): Promise<void> {
  const { callBacks } = tablesOf(db);
  const theirs = and(eq(callBacks.userId, userId), eq(callBacks.firstCallId, callId));
  await db.update(callBacks).set({ state: 'done', doneBy: 'owner', updatedAt: now }).where(and(theirs, eq(callBacks.state, 'waiting')));
  await db.update(callBacks).set({ doneBy: 'owner', updatedAt: now }).where(and(theirs, eq(callBacks.state, 'calling')));
}
