import { and, eq } from 'drizzle-orm';
import type { Log } from '../../contract/log.js';
import { recordOwnerWindowCallBack } from '../call-backs-store/sweep-rows.js';
import { loadCallHandling } from '../call-handling/store.js';
import { waitingForCallBack } from '../calls/to-call-back.js';
import type { Db } from '../db/client.js';
import { tablesOf } from '../db/schema.js';

// The owner's window (issue 56, 'agent-after'): a finished call that lands on "To call back"
// (contract/callback.ts's rule, as the reminders and the digest read it) is the assistant's to
// ring once the owner's N minutes from the call's end have passed without them ringing first.
// With 'owner' nothing is recorded, as before; 'agent-at-time' rings only at a time agreed.

/** Records the call's call-back when its owner lets the assistant ring after their window. */
export async function recordOwnerWindow(db: Db, callId: number, now: Date, log: Pick<Log, 'info'>): Promise<void> {
  const { calls } = tablesOf(db);
  const call = (await db
    .select({ id: calls.id, userId: calls.userId, fromNumber: calls.fromNumber, createdAt: calls.createdAt, endedAt: calls.endedAt, staffId: calls.staffId })
    .from(calls)
    .where(and(eq(calls.id, callId), waitingForCallBack(calls)))
    .limit(1))[0];
  if (!call) return;
  const handling = await loadCallHandling(db, call.userId);
  if (handling.callBacksBy !== 'agent-after') return;
  const ended = call.endedAt ?? call.createdAt;
  const dueAt = new Date(ended.getTime() + handling.callBackAfterMinutes * 60_000);
  const row = await recordOwnerWindowCallBack(db, { userId: call.userId, firstCallId: call.id, callerNumber: call.fromNumber, dueAt, staffId: call.staffId }, now);
  if (row) log.info({ callId, callBackId: row.id, dueAt }, "call-back recorded: the assistant rings if the owner has not by the end of their window");
}
