import { and, count, eq, gte, inArray, like, ne, or } from 'drizzle-orm';
import type { Log } from '../../contract/log.js';
import { isUkMobile, toE164 } from '../../contract/phone.js';
import { countSms } from '../../contract/sms-segments.js';
import type { Db } from '../db/client.js';
import { tablesOf, type CallerText } from '../db/schema.js';
import { lockKey, transaction } from '../db/transaction.js';
import { errorMessage, isRetryable } from '../jobs/retryable.js';
import { NotifyError, type MessageGateway, type OutgoingMessage } from '../notify/gateway.js';
import { londonDayStartUtc } from '../time/london-time.js';
import { numberRange } from './text-back-rule.js';

/**
 * THE ONE ROAD for every text from a business to one of its callers: the missed-call
 * text-back, the owner's answers from the console, STOP/START confirmations, and the booking
 * texts to come. Whatever sends, the same rules hold here and nowhere else:
 * - only to a UK mobile;
 * - never to a number that texted STOP to this business (the STOP/START confirmations alone pass);
 * - a text-back at most once per caller, and once per range of 100 numbers, in the owner's window;
 * - within the per-owner and box-wide daily caps (London days);
 * - at most once per `key`: the row is claimed 'sending' before the provider is called, so a
 *   retried job or a second core never sends twice, and after a crash the gateway is asked.
 * The checks and the claim are one transaction, serialised (SQLite's single writer; on
 * PostgreSQL an advisory lock), so ten calls ending at once cannot all pass the window check.
 */

type RoadKind = 'text-back' | 'owner' | 'stop' | 'start' | 'booking' | 'deposit' | 'call-back';

export interface RoadRequest {
  userId: number;
  /** The caller, in any spelling. */
  to: string;
  /** The business's own number the text goes from (the DID the caller rang or texted). */
  from: string;
  kind: RoadKind;
  body: string;
  /** Unique per text, e.g. "text-back:41": the same key is never sent twice. */
  key: string;
  callId?: number | null;
  /** The owner's text-back window (text-back only). */
  windowHours?: number;
  /** Throw a provider failure that may pass (the caller's job retries it); else record it as failed. */
  retry: boolean;
}

export type Refusal = 'not-uk-mobile' | 'opted-out' | 'recently-texted' | 'range-texted' | 'owner-cap' | 'box-cap';

export type RoadResult = { outcome: 'sent' | 'failed' | 'already'; text: CallerText } | { outcome: 'refused'; reason: Refusal; message: string };

export interface RoadDeps {
  db: Db;
  gateway: MessageGateway;
  now: () => Date;
  log: Pick<Log, 'info' | 'warn'>;
  caps: { dailyPerOwner: number; dailyBox: number };
  /** Twilio's StatusCallback for each text (PUBLIC_URL + /api/twilio/message-status), when Twilio sends. */
  statusCallback?: string;
}

const REFUSALS: Record<Refusal, string> = {
  'not-uk-mobile': 'Texts go only to UK mobile numbers (07…).',
  'opted-out': 'This caller replied STOP: no texts can be sent to them until they reply START.',
  'recently-texted': 'This caller was already texted back within the window.',
  'range-texted': 'A number in the same range was already texted back within the window.',
  'owner-cap': 'Today\'s limit of texts to callers for this business is reached; try again tomorrow.',
  'box-cap': 'Today\'s limit of texts to callers for this appliance is reached; try again tomorrow.',
};

const HOUR_MS = 3_600_000;


export function createCallerTextRoad(deps: RoadDeps) {
  const { db, gateway, log } = deps;
  const { callerTexts } = tablesOf(db);
  /** Texts the business sent (everything but the callers' own). */
  const outgoing = ne(callerTexts.kind, 'caller');

  const refused = (reason: Refusal): RoadResult => ({ outcome: 'refused', reason, message: REFUSALS[reason] });

  /** The checks and the claim, in one serialised transaction. */
  const claim = (req: RoadRequest, to: string) =>
    transaction(db, async (tx): Promise<{ row: CallerText; fresh: boolean } | Refusal> => {
      const { callerOptOuts, callerTexts } = tablesOf(tx);
      await lockKey(tx, 'caller-texts');
      const existing = (await tx.select().from(callerTexts).where(eq(callerTexts.key, req.key)).limit(1))[0];
      if (existing) return { row: existing, fresh: false };
      const now = deps.now();
      if (req.kind !== 'stop' && req.kind !== 'start') {
        const stopped = await tx.select({ n: callerOptOuts.callerNumber }).from(callerOptOuts)
          .where(and(eq(callerOptOuts.userId, req.userId), eq(callerOptOuts.callerNumber, to))).limit(1);
        if (stopped.length) return 'opted-out';
      }
      if (req.kind === 'text-back') {
        const since = new Date(now.getTime() - (req.windowHours ?? 24) * HOUR_MS);
        const recent = await tx.select({ n: callerTexts.callerNumber }).from(callerTexts)
          .where(and(eq(callerTexts.userId, req.userId), eq(callerTexts.kind, 'text-back'), gte(callerTexts.createdAt, since),
            or(eq(callerTexts.callerNumber, to), like(callerTexts.callerNumber, `${numberRange(to)}__`))));
        if (recent.some((r) => r.n === to)) return 'recently-texted';
        if (recent.length) return 'range-texted';
      }
      // Confirmations are counted but never held back: a STOP must always be acknowledged.
      if (req.kind !== 'stop' && req.kind !== 'start') {
        const dayStart = new Date(londonDayStartUtc(now.getTime()));
        const [mine] = await tx.select({ n: count() }).from(callerTexts).where(and(eq(callerTexts.userId, req.userId), outgoing, gte(callerTexts.createdAt, dayStart)));
        if ((mine?.n ?? 0) >= deps.caps.dailyPerOwner) return 'owner-cap';
        const [all] = await tx.select({ n: count() }).from(callerTexts).where(and(outgoing, gte(callerTexts.createdAt, dayStart)));
        if ((all?.n ?? 0) >= deps.caps.dailyBox) return 'box-cap';
      }
      const row = (await tx.insert(callerTexts).values({
        userId: req.userId, callerNumber: to, kind: req.kind, status: 'sending', body: req.body, segments: countSms(req.body).segments,
        key: req.key, callId: req.callId ?? null, createdAt: now, updatedAt: now,
      }).returning())[0]!;
      return { row, fresh: true };
    });

  const settle = async (id: number, set: Partial<CallerText>) =>
    (await db.update(callerTexts).set({ ...set, updatedAt: deps.now() }).where(eq(callerTexts.id, id)).returning())[0]!;

  async function send(req: RoadRequest): Promise<RoadResult> {
    const to = toE164(req.to);
    if (!to || !isUkMobile(to)) return refused('not-uk-mobile');
    const claimed = await claim(req, to);
    if (typeof claimed === 'string') {
      log.info({ userId: req.userId, kind: req.kind, key: req.key, reason: claimed }, 'text to a caller not sent');
      return refused(claimed);
    }
    let { row } = claimed;
    if (row.status !== 'sending') return { outcome: 'already', text: row };
    const msg: OutgoingMessage = {
      channel: 'sms', to, businessNumber: req.from, body: row.body, key: `caller-${req.key.replace(/:/g, '-')}`,
      ...(deps.statusCallback ? { statusCallback: deps.statusCallback } : {}),
    };
    if (!claimed.fresh) {
      // Claimed by an attempt that never recorded its end (a crash, a retry): did it go?
      const found = await gateway.reconcile(msg, row.createdAt);
      if (found === 'unknown') throw new NotifyError(`cannot tell whether text ${row.key} went out; asking again later`, true);
      if (found.sent) return { outcome: 'sent', text: await settle(row.id, { status: 'sent', providerId: found.providerId, error: null }) };
    }
    try {
      const { providerId } = await gateway.send(msg);
      row = await settle(row.id, { status: 'sent', providerId, error: null });
      log.info({ userId: req.userId, kind: req.kind, textId: row.id }, 'text to a caller sent');
      return { outcome: 'sent', text: row };
    } catch (err) {
      const error = errorMessage(err);
      if (req.retry && isRetryable(err)) {
        await settle(row.id, { error });
        throw err;
      }
      log.warn({ userId: req.userId, kind: req.kind, textId: row.id, err: error }, 'text to a caller failed');
      return { outcome: 'failed', text: await settle(row.id, { status: 'failed', error }) };
    }
  }

  /** Gives up a text whose job ran out of attempts: shown failed with the last reason. */
  async function giveUp(key: string): Promise<void> {
    await db.update(callerTexts).set({ status: 'failed', updatedAt: deps.now() }).where(and(eq(callerTexts.key, key), inArray(callerTexts.status, ['sending'])));
  }

  return { send, giveUp };
}

export type CallerTextRoad = ReturnType<typeof createCallerTextRoad>;
