import { and, eq, isNull, sql } from 'drizzle-orm';
import { storedNumber } from '../../contract/phone.js';
import type { Db } from '../db/client.js';
import { preparedPerDb } from '../db/prepared.js';
import { tablesOf, type Call } from '../db/schema.js';
import { rowsAffected } from '../db/raw.js';
import { DEFAULT_NODE } from '../config/config.js';

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
  /** The node (NODE_NAME) whose Asterisk holds the channel. */
  node?: string;
  /** Screened before answering (issue 43): the owner's spam list or the box-wide list. */
  screenedBy?: Call['screenedBy'];
  /** 'call-back' when the assistant rang the caller (issue 56); a caller ringing in otherwise. */
  direction?: Call['direction'];
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

const statements = preparedPerDb('call-store', (db, { calls }) => ({
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
      node: sql.placeholder('node'),
      screenedBy: sql.placeholder('screenedBy'),
      direction: sql.placeholder('direction'),
      status: 'missed',
      duration: 0,
    })
    .onConflictDoNothing({ target: calls.channelId })
    .returning(),
  byChannel: db
    .select()
    .from(calls)
    .where(eq(calls.channelId, sql.placeholder('channelId')))
    .limit(1),
}));

/** Inserts the row for a channel, or returns the one already there (`existing: true`). */
export async function openCall(db: Db, call: OpenCall): Promise<{ call: Call; existing: boolean }> {
  // One spelling per number (E.164), whatever the trunk sent, so erasure and search find every call.
  const [inserted] = await statements(db).open.execute({ callerTag: null, period: null, testCall: false, node: DEFAULT_NODE, screenedBy: null, direction: 'in', ...call, fromNumber: storedNumber(call.fromNumber), toNumber: storedNumber(call.toNumber) });
  if (inserted) return { call: inserted, existing: false };
  return { call: (await findCallByChannel(db, call.channelId))!, existing: true };
}

export async function findCallByChannel(db: Db, channelId: string): Promise<Call | undefined> {
  return (await statements(db).byChannel.execute({ channelId }))[0];
}

/**
 * Makes a call row final. Only an open row changes, so a second finish (a duplicate
 * event, a reconcile racing a late hang-up) is a no-op and returns false.
 */
export async function finishCall(db: Db, id: number, result: FinishCall): Promise<boolean> {
  const { calls } = tablesOf(db);
  const changed = await db
    .update(calls)
    .set(result)
    .where(and(eq(calls.id, id), isNull(calls.endedAt)));
  return rowsAffected(changed) === 1;
}

/** Rows of `node`'s calls not made final (the core stopped or the link dropped mid-call); other nodes' live calls are theirs. */
export async function openCalls(db: Db, node: string): Promise<Call[]> {
  const { calls } = tablesOf(db);
  return await db.select().from(calls).where(and(isNull(calls.endedAt), eq(calls.node, node)));
}
