import { and, eq } from 'drizzle-orm';
import { isLanguageCode, type LanguageCode } from '../../dialogue/language/languages.js';
import type { DialFacts } from '../call-backs/may-dial.js';
import type { OutboundAllowList } from '../outbound/dialable.js';
import { recentCallBackTries } from '../call-backs-store/sweep-rows.js';
import { loadCallHandling } from '../call-handling/store.js';
import type { Db } from '../db/client.js';
import { tablesOf, type CallBackRow } from '../db/schema.js';

// What the sweep reads before it asks mayDial about one claimed call-back: the owner's hours,
// the caller's STOP, the owner's spam mark, whether the owner dealt with it, and the tries the
// caps count. Read at the moment of the dial, never remembered: a STOP sent a minute ago counts.

/** The caps are per London day at most: a day and a little of tries is all they look at. */
const CAPS_LOOK_BACK_MS = 25 * 3_600_000;

/** What the dial itself needs besides the facts: the first call's words and language. */
export interface FirstCall {
  summary: string | null;
  language?: LanguageCode;
}

export async function gatherDialFacts(db: Db, row: CallBackRow, now: Date, allow: OutboundAllowList): Promise<{ facts: DialFacts; firstCall: FirstCall }> {
  const { callerOptOuts, spamMarks, calls } = tablesOf(db);
  const [handling, stopped, spam, first, dials] = await Promise.all([
    loadCallHandling(db, row.userId),
    db.select({ n: callerOptOuts.callerNumber }).from(callerOptOuts).where(and(eq(callerOptOuts.userId, row.userId), eq(callerOptOuts.callerNumber, row.callerNumber))).limit(1),
    db.select({ n: spamMarks.number }).from(spamMarks).where(and(eq(spamMarks.userId, row.userId), eq(spamMarks.number, row.callerNumber), eq(spamMarks.verdict, 'spam'))).limit(1),
    row.firstCallId === null
      ? Promise.resolve([])
      : db.select({ calledBackAt: calls.calledBackAt, aiSummary: calls.aiSummary, language: calls.callerLanguage }).from(calls).where(eq(calls.id, row.firstCallId)).limit(1),
    recentCallBackTries(db, row.userId, new Date(now.getTime() - CAPS_LOOK_BACK_MS)),
  ]);
  const call = first[0];
  const facts: DialFacts = {
    now,
    dueAt: row.dueAt,
    tries: row.tries,
    lastTry: row.lastTryAt && row.lastOutcome ? { at: row.lastTryAt, outcome: row.lastOutcome } : null,
    number: row.callerNumber,
    allow,
    optedOut: stopped.length > 0,
    markedSpam: spam.length > 0,
    // The owner rang them first (marked the call called back, DONE by text, took it) while it waited.
    ownerDealt: row.doneBy === 'owner' || row.doneBy === 'owner-cancelled' || !!call?.calledBackAt,
    hours: { hours: handling.hours, holidayNations: handling.holidayNations },
    dials,
  };
  const language = call?.language && call.language !== 'en' && isLanguageCode(call.language) ? call.language : undefined;
  return { facts, firstCall: { summary: call?.aiSummary ?? null, ...(language ? { language } : {}) } };
}
