import { and, eq } from 'drizzle-orm';
import type { Log } from '../../contract/log.js';
import { asksForCallBack } from '../../dialogue/agent/call-back-asked.js';
import { recordCallBackWish } from '../call-backs-store/store.js';
import { loadCallHandling } from '../call-handling/store.js';
import { waitingForCallBack } from '../calls/to-call-back.js';
import type { Db } from '../db/client.js';
import { tablesOf, type CallBackRow } from '../db/schema.js';
import { dialRefusal, type OutboundAllowList } from '../outbound/dialable.js';
import { wishTime } from './wish-time.js';

// A voicemail that says "ring me back after four" (issue 56): once its transcript is stored,
// the same words that make a wish in a call with the assistant make one here, at the time code
// reads from them as it would have in the call (wish-time.ts), counted from when the caller
// spoke (the call's end), not from when the transcript came. Nobody answers the caller, so
// nothing is promised: the tracker and the owner's summary carry it.

export interface VoicemailWishDeps {
  db: Db;
  now: () => Date;
  log: Pick<Log, 'info'>;
  /** OUTBOUND_ALLOW: a number the box could never dial gets no call-back. */
  allow: OutboundAllowList;
}

/**
 * Records (or moves, while it still waits) the call-back a settled voicemail asks for, when the
 * owner lets the assistant ring back and the call still waits for a call-back. Returns the row,
 * or undefined when the voicemail asks for none or none may be made.
 */
export async function recordVoicemailWish(deps: VoicemailWishDeps, callId: number): Promise<CallBackRow | undefined> {
  const { db } = deps;
  const { calls } = tablesOf(db);
  const call = (await db
    .select({ id: calls.id, userId: calls.userId, mode: calls.mode, fromNumber: calls.fromNumber, transcription: calls.transcription, createdAt: calls.createdAt, endedAt: calls.endedAt, staffId: calls.staffId })
    .from(calls)
    .where(and(eq(calls.id, callId), eq(calls.status, 'voicemail'), waitingForCallBack(calls)))
    .limit(1))[0];
  // An agent call's wish was agreed in the call itself (desk.ts), with the caller told the time.
  if (!call || call.mode === 'agent' || !call.transcription || !asksForCallBack(call.transcription)) return undefined;
  if (dialRefusal(call.fromNumber, deps.allow) !== null) return undefined;
  const handling = await loadCallHandling(db, call.userId);
  if (handling.callBacksBy === 'owner') return undefined;
  const spoke = call.endedAt ?? call.createdAt;
  const agreed = wishTime({ by: handling.callBacksBy, afterMinutes: handling.callBackAfterMinutes, words: call.transcription, now: spoke, hours: handling });
  if (!agreed.at) return undefined;
  const row = await recordCallBackWish(db, { userId: call.userId, firstCallId: call.id, callerNumber: call.fromNumber, dueAt: agreed.at, source: 'voicemail', staffId: call.staffId }, deps.now());
  deps.log.info({ callId, callBackId: row.id, dueAt: row.dueAt }, 'call-back recorded: the voicemail asks to be rung back');
  return row;
}
