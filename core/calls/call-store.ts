import { and, eq, isNull, sql } from 'drizzle-orm';
import { storedNumber } from '../../contract/phone.js';
import type { Db } from '../db/client.js';
import { preparedPerDb } from '../db/prepared.js';
import { calls, type Call } from '../db/schema.js';

// The PBX's writes to the calls table. The ARI channel id is unique, so opening the same
// channel twice (a reconnect replaying a call) finds the first row instead of adding one.

export interface OpenCall {
  userId: number;
  channelId: string;
  fromNumber: string;
  toNumber: string;
  mode: Call['mode'];
  /** When Asterisk created the channel. */
  createdAt: Date;
  /** Call handling's tag (blocked, withheld refused, VIP) and the hours period it arrived in. */
  callerTag?: Call['callerTag'];
  period?: Call['period'];
  /** The owner's own test call from the console (Stasis arg test-call). */
  testCall?: boolean;
}

export interface FinishCall {
  status: Call['status'];
  /** Whole seconds, the call's real length. */
  duration: number;
  endedAt: Date;
  /** File name inside $DATA_DIR/recordings, when a message was stored. */
  recordingFile: string | null;
  /** Set when the caller was offered to the owner's phone. */
  transferOutcome?: Call['transferOutcome'];
  transferTalkSeconds?: number | null;
}

const statements = preparedPerDb((db) => ({
  open: db
    .insert(calls)
    .values({
      userId: sql.placeholder('userId'),
      channelId: sql.placeholder('channelId'),
      fromNumber: sql.placeholder('fromNumber'),
      toNumber: sql.placeholder('toNumber'),
      mode: sql.placeholder('mode'),
      createdAt: sql.placeholder('createdAt'),
      callerTag: sql.placeholder('callerTag'),
      period: sql.placeholder('period'),
      testCall: sql.placeholder('testCall'),
      status: 'missed',
      duration: 0,
    })
    .onConflictDoNothing({ target: calls.channelId })
    .returning()
    .prepare(),
  byChannel: db
    .select()
    .from(calls)
    .where(eq(calls.channelId, sql.placeholder('channelId')))
    .prepare(),
}));

/** Inserts the row for a channel, or returns the one already there (`existing: true`). */
export function openCall(db: Db, call: OpenCall): { call: Call; existing: boolean } {
  // One spelling per number (E.164), whatever the trunk sent, so erasure and search find every call.
  const inserted = statements(db).open.get({ callerTag: null, period: null, testCall: false, ...call, fromNumber: storedNumber(call.fromNumber), toNumber: storedNumber(call.toNumber) });
  if (inserted) return { call: inserted, existing: false };
  return { call: findCallByChannel(db, call.channelId)!, existing: true };
}

export function findCallByChannel(db: Db, channelId: string): Call | undefined {
  return statements(db).byChannel.get({ channelId });
}

/**
 * Makes a call row final. Only an open row changes, so a second finish (a duplicate
 * event, a reconcile racing a late hang-up) is a no-op and returns false.
 */
export function finishCall(db: Db, id: number, result: FinishCall): boolean {
  const changed = db
    .update(calls)
    .set(result)
    .where(and(eq(calls.id, id), isNull(calls.endedAt)))
    .run();
  return changed.changes === 1;
}

/** Rows whose call has not been made final (the core stopped or the link dropped mid-call). */
export function openCalls(db: Db): Call[] {
  return db.select().from(calls).where(isNull(calls.endedAt)).all();
}
