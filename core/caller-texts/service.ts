import type { OwnerNewsPort } from '../ports/owner-news.js';
import { screenBeforeAnswer } from '../screening/lookup.js';
import { eq } from 'drizzle-orm';
import { DEFAULT_BACKOFF } from '../time/backoff.js';
import { JobQueue } from '../jobs/queue.js';
import { JobWorker, type JobHandler } from '../jobs/worker.js';
import { errorMessage } from '../jobs/retryable.js';
import { tablesOf } from '../db/schema.js';
import type { MessageGateway } from '../notify/gateway.js';
import { gatewayFromConfig } from '../notify/gateway-from-config.js';
import type { CoreDeps } from '../deps.js';
import type { InboundText } from '../followup/inbound-text.js';
import { handleCallerText, type BookingReply } from './inbound.js';
import { isBusinessOwnNumber } from './own-numbers.js';
import { createCallerTextRoad, type CallerTextRoad } from './road.js';
import { loadTextBack } from './store.js';
import { defaultTextBackWording, textBackVerdict } from './text-back-rule.js';

const TEXT_BACK_JOB = 'text-back';
export const textBackKey = (callId: number) => `text-back:${callId}`;
/** Twilio reports each caller text's fate here (core/twilio/webhook-routes.ts). */
export const MESSAGE_STATUS_PATH = '/api/twilio/message-status';

export interface CallerTextOptions {
  gateway?: MessageGateway;
  pollMs?: number;
  maxAttempts?: number;
  /** A caller's text is offered to booking first (core/booking: "C" cancels their next booking). */
  bookingReply?: BookingReply;
  /** Push alerts of a caller's text on the owner's devices (core/push). */
  ownerNews?: OwnerNewsPort;
}

/**
 * Texts between businesses and their callers: the one road every such text takes (road.ts),
 * the missed-call text-back on its own durable job kind (queued when the call's row is final,
 * so it goes within seconds of the hang-up and once, whatever restarts), and callers' texts in.
 */
export class CallerTextService {
  readonly road: CallerTextRoad;
  readonly queue: JobQueue;
  private readonly worker: JobWorker;
  readonly gateway: MessageGateway;
  private readonly maxAttempts: number;
  private subscribed = false;

  constructor(private readonly deps: CoreDeps, private readonly opts: CallerTextOptions = {}) {
    const { config, database, log, now } = deps;
    this.gateway = opts.gateway ?? gatewayFromConfig(deps);
    const twilio = !!(config.twilio.accountSid && config.twilio.authToken);
    this.road = createCallerTextRoad({
      db: database.db, gateway: this.gateway, now, log, caps: config.callerTexts,
      statusCallback: twilio ? new URL(MESSAGE_STATUS_PATH, config.publicUrl).toString() : undefined,
    });
    this.maxAttempts = opts.maxAttempts ?? 6;
    this.queue = new JobQueue(database.db, now, { leaseMs: config.jobs.leaseMs, backoff: DEFAULT_BACKOFF, kinds: [TEXT_BACK_JOB] });
    this.worker = new JobWorker({ queue: this.queue, handlers: { [TEXT_BACK_JOB]: this.textBackHandler() }, log, pollMs: opts.pollMs ?? 1000, concurrency: 1 });
  }

  /**
   * The callFinished listener: a missed call is queued for its text-back check (the rules run
   * in the job, off the PBX's path). One job per call, ever (the job key).
   */
  async enqueueTextBack(callId: number): Promise<void> {
    const { db } = this.deps.database;
    const { calls } = tablesOf(db);
    const call = (await db.select({ status: calls.status, testCall: calls.testCall }).from(calls).where(eq(calls.id, callId)).limit(1))[0];
    if (!call || call.status !== 'missed' || call.testCall) return;
    if (await this.queue.enqueue(TEXT_BACK_JOB, textBackKey(callId), { callId }, { maxAttempts: this.maxAttempts })) this.worker.kick();
  }

  private textBackHandler(): JobHandler {
    const { database, log, now } = this.deps;
    const db = database.db;
    const { calls, users } = tablesOf(db);
    return async (job) => {
      const callId = Number(job.payload.callId);
      const call = (await db.select().from(calls).where(eq(calls.id, callId)).limit(1))[0];
      if (!call) return;
      const settings = await loadTextBack(db, call.userId);
      const verdict = textBackVerdict(call, settings);
      if (!verdict.send) {
        if (settings.enabled) log.info({ callId, why: verdict.why }, 'no text-back for this call');
        return;
      }
      // Never to a number on the owner's spam list or the box-wide list (issue 43), even one
      // marked after its call was taken: the lists are read now, at send time.
      if ((await screenBeforeAnswer(db, call.toNumber, call.fromNumber, now())).screen) {
        log.info({ callId }, 'no text-back: the caller is screened as a nuisance');
        return;
      }
      if (await isBusinessOwnNumber(db, call.userId, call.fromNumber)) {
        log.info({ callId }, 'no text-back: the call came from one of the business\'s own numbers');
        return;
      }
      const owner = (await db.select({ businessName: users.businessName }).from(users).where(eq(users.id, call.userId)).limit(1))[0];
      if (!owner) return;
      const last = job.attempt >= job.maxAttempts;
      try {
        await this.road.send({
          userId: call.userId, to: call.fromNumber, from: call.toNumber, kind: 'text-back', callId,
          body: settings.wording ?? defaultTextBackWording(owner.businessName), key: textBackKey(callId),
          windowHours: settings.windowHours, retry: true,
        });
      } catch (err) {
        if (last) await this.road.giveUp(textBackKey(callId));
        log.warn({ callId, attempt: job.attempt, err: errorMessage(err) }, 'text-back attempt failed');
        throw err;
      }
    };
  }

  /** For core/followup's inbound handling: a caller's text to a business's number. */
  callerText(): (msg: InboundText, ownerIds: number[]) => Promise<boolean> {
    const { database, log, now, config } = this.deps;
    const deps = { db: database.db, road: this.road, gateway: this.gateway, log, now, publicUrl: config.publicUrl, bookingReply: this.opts.bookingReply, ownerNews: this.opts.ownerNews };
    return (msg, ownerIds) => handleCallerText(deps, msg, ownerIds);
  }

  start(): void {
    if (!this.subscribed) {
      this.subscribed = true;
      this.deps.hooks.callFinished.push((id) => {
        void this.enqueueTextBack(id).catch((err: unknown) => this.deps.log.error({ callId: id, err: errorMessage(err) }, 'text-back not queued'));
      });
    }
    this.worker.start();
  }

  async stop(): Promise<void> {
    await this.worker.stop();
  }
}
