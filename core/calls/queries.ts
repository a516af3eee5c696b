import { and, desc, eq, sql } from 'drizzle-orm';
import type { ApiCallLog } from '../../contract/api.js';
import type { Db } from '../db/client.js';
import { preparedPerDb } from '../db/prepared.js';
import { tablesOf, type Tables, type Call } from '../db/schema.js';
import { encodeCallLogCursor, type CallLogCursor } from './call-log-cursor.js';

/**
 * Without ?limit the API returns this many most recent calls: a screenful and more on a
 * phone, cheap to serialise (p95 well inside the 50 ms budget under load, bench/http-load.ts),
 * while a business with 100 000 calls never sends them all. The console loads older pages
 * with nextCursor and takes its stat cards from the server's totals.
 */
export const DEFAULT_CALL_LOG_LIMIT = 200;
export const MAX_CALL_LOG_LIMIT = 1000;

export interface CallLogPage {
  callLogs: ApiCallLog[];
  nextCursor: string | null;
}

// Of the calls table of the database queried (tablesOf).
const listColumns = (calls: Tables['calls']) => ({
  id: calls.id,
  fromNumber: calls.fromNumber,
  toNumber: calls.toNumber,
  status: calls.status,
  duration: calls.duration,
  createdAt: calls.createdAt,
  aiSummary: calls.aiSummary,
  transcription: calls.transcription,
  recordingFile: calls.recordingFile,
  notificationSent: calls.notificationSent,
  urgency: calls.urgency,
  urgencyReason: calls.urgencyReason,
  calledBackAt: calls.calledBackAt,
  callerTag: calls.callerTag,
  transferOutcome: calls.transferOutcome,
  transferTalkSeconds: calls.transferTalkSeconds,
  period: calls.period,
  agentBusy: calls.agentBusy,
  agentStalled: calls.agentStalled,
  testCall: calls.testCall,
  callClass: calls.callClass,
  screenedBy: calls.screenedBy,
  callerLanguage: calls.callerLanguage,
  transcriptEnglish: calls.transcriptEnglish,
  wantsBooking: calls.wantsBooking,
});

type ListRow = Pick<
  Call,
  | 'id'
  | 'fromNumber'
  | 'toNumber'
  | 'status'
  | 'duration'
  | 'createdAt'
  | 'aiSummary'
  | 'transcription'
  | 'recordingFile'
  | 'notificationSent'
  | 'urgency'
  | 'urgencyReason'
  | 'calledBackAt'
  | 'callerTag'
  | 'transferOutcome'
  | 'transferTalkSeconds'
  | 'period'
  | 'agentBusy'
  | 'agentStalled'
  | 'testCall'
  | 'callClass'
  | 'screenedBy'
  | 'callerLanguage'
  | 'transcriptEnglish'
  | 'wantsBooking'
>;

function recordingUrl(callId: number): string {
  return `/api/call-logs/${callId}/recording`;
}

function toApiCallLog(r: ListRow): ApiCallLog {
  return {
    id: r.id,
    fromNumber: r.fromNumber,
    toNumber: r.toNumber,
    status: r.status,
    duration: r.duration,
    createdAt: r.createdAt.toISOString(),
    aiSummary: r.aiSummary,
    transcription: r.transcription,
    recordingUrl: r.recordingFile ? recordingUrl(r.id) : null,
    notificationSent: r.notificationSent,
    urgency: r.urgency,
    urgencyReason: r.urgencyReason,
    calledBackAt: r.calledBackAt ? r.calledBackAt.toISOString() : null,
    callerTag: r.callerTag,
    transferOutcome: r.transferOutcome,
    transferTalkSeconds: r.transferTalkSeconds,
    period: r.period,
    agentBusy: r.agentBusy,
    agentStalled: r.agentStalled,
    testCall: r.testCall,
    callClass: r.callClass,
    screenedBy: r.screenedBy,
    callerLanguage: r.callerLanguage,
    transcriptEnglish: r.transcriptEnglish,
    wantsBooking: r.wantsBooking,
  };
}

/**
 * One owner's calls, newest first, scoped in SQL. The row-value comparison and the
 * ORDER BY match calls_user_created_idx (user_id, created_at, id), so SQLite walks the
 * index backwards from the cursor and stops after limit + 1 rows (EXPLAIN QUERY PLAN:
 * "SEARCH calls USING INDEX calls_user_created_idx (user_id=? AND created_at<?)", no
 * temp B-tree; test/calls/call-logs.test.ts guards it).
 */
export function callLogPageQuery(db: Db, withCursor: boolean) {
  const { calls } = tablesOf(db);
  return db
    .select(listColumns(calls))
    .from(calls)
    .where(
      and(
        eq(calls.userId, sql.placeholder('userId')),
        withCursor
          ? sql`(${calls.createdAt}, ${calls.id}) < (${sql.param(sql.placeholder('beforeCreatedAt'), calls.createdAt)}, ${sql.placeholder('beforeId')})`
          : undefined,
      ),
    )
    .orderBy(desc(calls.createdAt), desc(calls.id))
    .limit(sql.placeholder('limit'));
}

// Prepared once per database: building and preparing the SQL on every request cost
// more than running it (bench/call-logs.ts).
const pagePlans = preparedPerDb('call-logs', (db) => ({ first: callLogPageQuery(db, false), next: callLogPageQuery(db, true) }));

export async function listCallLogs(db: Db, userId: number, opts: { limit: number; before?: CallLogCursor }): Promise<CallLogPage> {
  const { limit, before } = opts;
  const { first, next } = pagePlans(db);
  const rows = await (before
    ? next.execute({ userId, limit: limit + 1, beforeCreatedAt: new Date(before.createdAtMs), beforeId: before.id })
    : first.execute({ userId, limit: limit + 1 }));
  const more = rows.length > limit;
  const page = more ? rows.slice(0, limit) : rows;
  const last = page[page.length - 1];
  return {
    callLogs: page.map(toApiCallLog),
    nextCursor: more && last ? encodeCallLogCursor({ createdAtMs: last.createdAt.getTime(), id: last.id }) : null,
  };
}

/** One of the owner's calls as the list shows it, scoped in SQL; undefined for anyone else's. */
export async function ownedCallLog(db: Db, userId: number, callId: number): Promise<ApiCallLog | undefined> {
  const { calls } = tablesOf(db);
  const row = (await db
    .select(listColumns(calls))
    .from(calls)
    .where(and(eq(calls.id, callId), eq(calls.userId, userId))).limit(1))[0];
  return row ? toApiCallLog(row) : undefined;
}

/** The stored recording's file name for a call the user owns; undefined for anyone else's. */
export async function ownedRecordingFile(db: Db, userId: number, callId: number): Promise<string | null | undefined> {
  const { calls } = tablesOf(db);
  const row = (await db
    .select({ recordingFile: calls.recordingFile })
    .from(calls)
    .where(and(eq(calls.id, callId), eq(calls.userId, userId))).limit(1))[0];
  return row ? row.recordingFile : undefined;
}

/**
 * Marks one of the owner's calls rung back (or not), scoped in SQL; undefined for a call that
 * is not theirs. Marking it twice keeps the first time.
 */
export async function setCalledBack(db: Db, userId: number, callId: number, calledBack: boolean, now: Date): Promise<ApiCallLog | undefined> {
  const { calls } = tablesOf(db);
  const owned = and(eq(calls.id, callId), eq(calls.userId, userId));
  const row = (await db.select({ calledBackAt: calls.calledBackAt }).from(calls).where(owned).limit(1))[0];
  if (!row) return undefined;
  const calledBackAt = calledBack ? (row.calledBackAt ?? now) : null;
  const updated = (await db.update(calls).set({ calledBackAt }).where(owned).returning(listColumns(calls)))[0];
  return updated ? toApiCallLog(updated) : undefined;
}
