import { eq } from 'drizzle-orm';
import type { CallBackOutcome } from '../../contract/call-backs.js';
import { callDetailsPath } from '../../contract/links.js';
import type { Log } from '../../contract/log.js';
import { noAnswerText } from '../call-backs/texts.js';
import type { CallerTextRoad } from '../caller-texts/road.js';
import type { Db } from '../db/client.js';
import { tablesOf, type CallBackRow } from '../db/schema.js';
import { errorMessage } from '../jobs/retryable.js';
import type { MessageGateway } from '../notify/gateway.js';
import { toSmsText } from '../notify/message.js';
import { planNotification } from '../notify/policy.js';
import type { OwnerNewsPort } from '../ports/owner-news.js';
import { ownerTryLine } from './owner-words.js';

// What follows one try of a call-back (issue 56): a caller who was not reached gets the
// no-answer text on the caller-text road (so their STOP and the daily caps hold, once per try by
// its key), and the owner gets one line on the channel their summaries use and their devices.

export interface AfterTryDeps {
  db: Db;
  road: CallerTextRoad;
  gateway: MessageGateway;
  ownerNews?: OwnerNewsPort;
  log: Pick<Log, 'info' | 'warn'>;
}

export interface TryDone {
  row: CallBackRow;
  /** Which try this was (1 or 2). */
  tryNumber: number;
  outcome: CallBackOutcome;
  /** The business's number the call-back rang from, and the text goes from. */
  from: string;
  callId: number | null;
  retryAt: Date | null;
}

/** The key of the no-answer text of one try: the road sends one key once. */
const noAnswerTextKey = (callBackId: number, tryNumber: number) => `call-back:${callBackId}:${tryNumber}`;

const REACHED_NOBODY: ReadonlySet<CallBackOutcome> = new Set(['no-answer', 'busy']);

export async function afterTry(deps: AfterTryDeps, t: TryDone): Promise<void> {
  let texted = false;
  if (REACHED_NOBODY.has(t.outcome)) {
    const sent = await deps.road.send({
      userId: t.row.userId, to: t.row.callerNumber, from: t.from, kind: 'call-back', body: noAnswerText(t.from),
      key: noAnswerTextKey(t.row.id, t.tryNumber), callId: t.row.firstCallId, retry: false,
    });
    texted = sent.outcome === 'sent' || sent.outcome === 'already';
    if (sent.outcome === 'refused') deps.log.info({ callBackId: t.row.id, reason: sent.reason }, 'call-back: the caller was not texted after no answer');
  }
  const line = ownerTryLine(t.outcome, t.row.callerNumber, t.retryAt, texted);
  if (line) await tellOwner(deps, t, line);
}

/** The owner's line: their devices (push), and a text on their summaries' channel, recorded before it goes. */
async function tellOwner(deps: AfterTryDeps, t: TryDone, line: string): Promise<void> {
  const { db } = deps;
  const { users, notifications } = tablesOf(db);
  const event = `call-back-${t.row.id}-${t.tryNumber}`;
  // The call-back's own call when it was answered, else the first call the caller asked in.
  const shown = t.callId ?? t.row.firstCallId;
  const url = shown !== null ? callDetailsPath(shown) : '/dashboard';
  deps.ownerNews?.({ userId: t.row.userId, event, kind: 'caller-text', staffId: t.row.staffId, title: 'Call-backs', body: line, url, callerNumber: t.row.callerNumber });
  const owner = (await db.select().from(users).where(eq(users.id, t.row.userId)).limit(1))[0];
  if (!owner) return;
  const plan = planNotification(owner);
  if (plan.kind !== 'send') return;
  const channel = plan.channels[0]!;
  const body = toSmsText(t.callId !== null ? `${line} (call ${t.callId})` : line);
  const notice = (await db.insert(notifications).values({ userId: owner.id, channel, kind: 'call-back', to: plan.to, body, status: 'sending' }).returning({ id: notifications.id }))[0]!.id;
  try {
    const { providerId } = await deps.gateway.send({ channel, to: plan.to, businessNumber: t.from, body, key: event });
    await db.update(notifications).set({ status: 'sent', providerId }).where(eq(notifications.id, notice));
  } catch (err) {
    const error = errorMessage(err);
    await db.update(notifications).set({ status: 'failed', error }).where(eq(notifications.id, notice));
    deps.log.warn({ userId: owner.id, callBackId: t.row.id, err: error }, 'owner not told about a call-back try');
  }
}
