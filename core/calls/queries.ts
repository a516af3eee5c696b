import { and, desc, eq, sql } from 'drizzle-orm';
import type { ApiCallLog } from '../../contract/api.js';
import type { Db } from '../db/client.js';
import { preparedPerDb } from '../db/prepared.js';
import { tablesOf, type Tables, type Call } from '../db/schema.js';
import { liveHistoryOf, takenOverOf, type LiveHistoryEntry } from '../live-control/history.js';
import { encodeCallLogCursor, type CallLogCursor } from './call-log-cursor.js';
import { ownerCalledBack } from '../call-backs-store/store.js';

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

// Of the calls table of the database queried (tablesOf), and the person's name from staff
// (left joined by its primary key: a call for nobody in particular has none).
const listColumns = (calls: Tables['calls'], staff: Tables['staff']) => ({
  id: calls.id,
  staffId: calls.staffId,
  staffName: staff.name,
  routingNote: calls.routingNote,
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
  agentVoicemailReason: calls.agentVoicemailReason,
  testCall: calls.testCall,
  direction: calls.direction,
  callClass: calls.callClass,
  screenedBy: calls.screenedBy,
  callerLanguage: calls.callerLanguage,
  transcriptEnglish: calls.transcriptEnglish,
  wantsBooking: calls.wantsBooking,
  takenOverBy: calls.takenOverBy,
  takenOverAt: calls.takenOverAt,
  takenOverVia: calls.takenOverVia,
});

type ListRow = { staffName: string | null } & Pick<
  Call,
  | 'id'
  | 'staffId'
  | 'routingNote'
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
  | 'agentVoicemailReason'
  | 'testCall'
  | 'direction'
  | 'callClass'
  | 'screenedBy'
  | 'callerLanguage'
  | 'transcriptEnglish'
  | 'wantsBooking'
  | 'takenOverBy'
  | 'takenOverAt'
  | 'takenOverVia'
>;

function recordingUrl(callId: number): string {
  return `/api/call-logs/${callId}/recording`;
}

function toApiCallLog(r: ListRow, liveHistory: LiveHistoryEntry[] = []): ApiCallLog {
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
    agentVoicemailReason: r.agentVoicemailReason,
    testCall: r.testCall,
    direction: r.direction,
    callClass: r.callClass,
    screenedBy: r.screenedBy,
    callerLanguage: r.callerLanguage,
    transcriptEnglish: r.transcriptEnglish,
    wantsBooking: r.wantsBooking,
    staffId: r.staffId,
    staffName: r.staffName,
    routingNote: r.routingNote,
    takenOver: takenOverOf(r),
    liveHistory,
  };
}

/**
 * Which of the business's calls a request may see (issue 58): the owner's id always, and a
 * person when a staff member with view 'own' asks (or anyone asks for one person's calls).
 */
export interface CallScope {
  userId: number;
  staffId?: number;
}

function inScope(calls: Tables['calls'], scope: CallScope, callId: number) {
  return and(eq(calls.id, callId), eq(calls.userId, scope.userId), scope.staffId === undefined ? undefined : eq(calls.staffId, scope.staffId));
}

/**
 * One owner's calls, newest first, scoped in SQL. The row-value comparison and the
 * ORDER BY match calls_user_created_idx (user_id, created_at, id), so SQLite walks the
 * index backwards from the cursor and stops after limit + 1 rows (EXPLAIN QUERY PLAN:
 * "SEARCH calls USING INDEX calls_user_created_idx (user_id=? AND created_at<?)", no
 * temp B-tree; test/calls/call-logs.test.ts guards it).
 */
export function callLogPageQuery(db: Db, withCursor: boolean, forPerson = false) {
  const { calls, staff } = tablesOf(db);
  return db
    .select(listColumns(calls, staff))
    .from(calls)
    .leftJoin(staff, eq(staff.id, calls.staffId))
    .where(
      and(
        eq(calls.userId, sql.placeholder('userId')),
        forPerson ? eq(calls.staffId, sql.placeholder('staffId')) : undefined,
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
const pagePlans = preparedPerDb('call-logs', (db) => ({
  first: callLogPageQuery(db, false),
  next: callLogPageQuery(db, true),
  personFirst: callLogPageQuery(db, false, true),
  personNext: callLogPageQuery(db, true, true),
}));

export async function listCallLogs(db: Db, scope: CallScope, opts: { limit: number; before?: CallLogCursor }): Promise<CallLogPage> {
  const { limit, before } = opts;
  const plans = pagePlans(db);
  const person = scope.staffId !== undefined;
  const params = { userId: scope.userId, limit: limit + 1, ...(person ? { staffId: scope.staffId } : {}) };
  const rows = await (before
    ? (person ? plans.personNext : plans.next).execute({ ...params, beforeCreatedAt: new Date(before.createdAtMs), beforeId: before.id })
    : (person ? plans.personFirst : plans.first).execute(params));
  const more = rows.length > limit;
  const page = more ? rows.slice(0, limit) : rows;
  const last = page[page.length - 1];
  // One more query per page (by call_live_events_call_idx), not per call.
  const history = await liveHistoryOf(db, scope.userId, page.map((r) => r.id));
  return {
    callLogs: page.map((r) => toApiCallLog(r, history.get(r.id))),
    nextCursor: more && last ? encodeCallLogCursor({ createdAtMs: last.createdAt.getTime(), id: last.id }) : null,
  };
}

/** One of the owner's calls as the list shows it, scoped in SQL; undefined for anyone else's (or outside a staff member's view). */
export async function ownedCallLog(db: Db, scope: CallScope, callId: number): Promise<ApiCallLog | undefined> {
  const { calls, staff } = tablesOf(db);
  const row = (await db
    .select(listColumns(calls, staff))
    .from(calls)
    .leftJoin(staff, eq(staff.id, calls.staffId))
    .where(inScope(calls, scope, callId)).limit(1))[0];
  return row ? toApiCallLog(row, (await liveHistoryOf(db, scope.userId, [row.id])).get(row.id)) : undefined;
}

/** The stored recording's file name for a call the user owns; undefined for anyone else's (or outside a staff member's view). */
export async function ownedRecordingFile(db: Db, scope: CallScope, callId: number): Promise<string | null | undefined> {
  const { calls } = tablesOf(db);
  const row = (await db
    .select({ recordingFile: calls.recordingFile })
    .from(calls)
    .where(inScope(calls, scope, callId)).limit(1))[0];
  return row ? row.recordingFile : undefined;
}

/**
 * Marks one of the owner's calls rung back (or not), scoped in SQL; undefined for a call that
 * is not theirs. Marking it twice keeps the first time.
 */
export async function setCalledBack(db: Db, scope: CallScope, callId: number, calledBack: boolean, now: Date): Promise<ApiCallLog | undefined> {
  const { calls } = tablesOf(db);
  const owned = inScope(calls, scope, callId);
  const row = (await db.select({ calledBackAt: calls.calledBackAt }).from(calls).where(owned).limit(1))[0];
  if (!row) return undefined;
  const calledBackAt = calledBack ? (row.calledBackAt ?? now) : null;
  const updated = await db.update(calls).set({ calledBackAt }).where(owned).returning({ id: calls.id });
  // Issue 56: the owner rang first, so the agent does not (un-marking never reopens a call-back).
  if (calledBack && updated.length > 0) await ownerCalledBack(db, scope.userId, callId, now);
  // Read back through the list's columns: an UPDATE … RETURNING cannot join the person's name.
  return updated.length > 0 ? ownedCallLog(db, scope, callId) : undefined;
}
