import { and, desc, eq, ne } from 'drizzle-orm';
import { toE164 } from '../../contract/phone.js';
import { recordCallBackWish } from '../call-backs-store/store.js';
import { loadCallHandling } from '../call-handling/store.js';
import { canTextCaller } from '../caller-texts/store.js';
import type { Db } from '../db/client.js';
import { tablesOf, type CallBackRow } from '../db/schema.js';
import { wishTime } from './wish-time.js';

// A caller's CALL reply to the missed-call text (issue 56): a wish to be rung back, at the next
// open moment after the owner's window (no time named). Only from a number the business sent
// the missed-call text to, only when the owner lets the agent ring back, never from a number
// that texted STOP. A second CALL moves the waiting call-back (the store is idempotent).

/** The call-back the reply asked for, or null when it is not one (the owner rings back, no missed-call text, STOP, closed for weeks). */
export async function callBackByReply(db: Db, userId: number, from: string, now: Date): Promise<CallBackRow | null> {
  const callerNumber = toE164(from) ?? from;
  const handling = await loadCallHandling(db, userId);
  if (handling.callBacksBy === 'owner') return null;
  const { callerTexts } = tablesOf(db);
  const missedCallText = (await db
    .select({ id: callerTexts.id })
    .from(callerTexts)
    .where(and(eq(callerTexts.userId, userId), eq(callerTexts.callerNumber, callerNumber), eq(callerTexts.kind, 'text-back'), ne(callerTexts.status, 'failed')))
    .orderBy(desc(callerTexts.id))
    .limit(1))[0];
  if (!missedCallText) return null;
  // STOP wins: a number that stopped texts is not rung either (mayDial would refuse it anyway).
  if (!(await canTextCaller(db, userId, callerNumber))) return null;
  const agreed = wishTime({ by: handling.callBacksBy, afterMinutes: handling.callBackAfterMinutes, words: '', now, hours: handling });
  if (!agreed.at) return null;
  return recordCallBackWish(db, { userId, callerNumber, dueAt: agreed.at, source: 'text-reply', textId: missedCallText.id }, now);
}
