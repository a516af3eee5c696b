import path from 'node:path';
import cron from 'node-cron';
import type { LanguageModel } from '../../models/llm/language-model.js';
import { createSpeechToText } from '../../models/stt/factory.js';
import type { SpeechToText } from '../../models/stt/speech-to-text.js';
import { DEFAULT_BACKOFF, type BackoffPolicy } from '../time/backoff.js';
import { JobQueue } from '../jobs/queue.js';
import { JobWorker } from '../jobs/worker.js';
import { createSummaryModel } from '../engines/agent-engines.js';
import { brand } from '../mail/brand.js';
import type { MessageGateway } from '../notify/gateway.js';
import { gatewayFromConfig } from '../notify/gateway-from-config.js';
import { CallNotifier } from '../notify/notifier.js';
import { DEFAULT_REPEAT_CALLER_RULE, type RepeatCallerRule } from '../notify/repeat-caller.js';
import type { Services } from '../services.js';
import { orphanedCallFinder } from './orphans.js';
import { markPostCallPending, POST_CALL_JOB, postCallHandler, postCallKey, postCallWorkLeft, textSummaryNow } from './post-call.js';
import { backgroundPass } from '../db/background-pass.js';

export interface PostCallEngines {
  stt?: SpeechToText;
  llm?: LanguageModel;
  gateway?: MessageGateway;
}

export interface PostCallOptions {
  pollMs?: number;
  leaseMs?: number;
  heartbeatMs?: number;
  backoff?: BackoffPolicy;
  maxAttempts?: number;
  notifyAnywayFromAttempt?: number;
  concurrency?: number;
  /** Done jobs are deleted after this long. */
  retainDoneMs?: number;
  /** The repeat-caller alert's threshold (default: 3 calls in 20 minutes). */
  repeatCaller?: RepeatCallerRule;
}

/*
 * Defaults: back-off 5 s doubling to 30 min, 12 attempts (about two and a half hours of
 * retrying before a call's summary is given up), the owner texted anyway from the 4th
 * attempt (about 40 s after the call when engines are down).
 */
const DEFAULTS = {
  pollMs: 1000,
  leaseMs: 90_000,
  heartbeatMs: 20_000,
  maxAttempts: 12,
  notifyAnywayFromAttempt: 4,
  concurrency: 2,
  retainDoneMs: 30 * 24 * 3600_000,
  repeatCaller: DEFAULT_REPEAT_CALLER_RULE,
};

export interface PostCall {
  queue: JobQueue;
  worker: JobWorker;
  /** The owner's texts and e-mails, shared with the call-back reminders. */
  notifier: CallNotifier;
  /** Queues the post-call job for a finished call (idempotent: one job per call, ever). */
  enqueuePostCall(callId: number): Promise<void>;
  /** One pass of job housekeeping and orphan recovery (also run by node-cron every minute while started). */
  sweep(): Promise<void>;
  start(): void;
  stop(): Promise<void>;
}

/**
 * The post-call jobs (transcribe → summarise → notify): queue, worker, engines from the
 * configuration (or the ones a test passes) and the `callFinished` hook. The composition
 * root and tests build it the same way.
 */
export function createPostCall(services: Services, engines: PostCallEngines = {}, options: PostCallOptions = {}): PostCall {
  const o = { ...DEFAULTS, ...options };
  const { config, database, log, now } = services;
  // Only post-call jobs: other kinds in the table (the PBX's recording retries) are not ours to run.
  const queue = new JobQueue(database.db, now, { leaseMs: o.leaseMs, backoff: o.backoff ?? DEFAULT_BACKOFF, kinds: [POST_CALL_JOB] });
  // The summary's push alerts go out with it, and may hold the owner's texts (core/push, issue 54).
  const notifier = new CallNotifier(database.db, engines.gateway ?? gatewayFromConfig(services), { mailer: services.mailer, brand: brand(config) }, services.push);
  services.push.useTextSender((callId) => textSummaryNow(database.db, notifier, callId));
  const { webhooks } = services;
  const handler = postCallHandler({
    db: database.db,
    // The agent's pools at background priority: a summary never takes a slot a caller needs.
    stt: engines.stt ?? createSpeechToText(services.agentEngines.pools.stt, 'background'),
    llm: engines.llm ?? createSummaryModel(config, services.agentEngines.pools),
    notifier,
    recordingsDir: path.join(config.dataDir, 'recordings'),
    log,
    notifyAnywayFromAttempt: o.notifyAnywayFromAttempt,
    repeatCaller: o.repeatCaller,
    // Each finished call goes to the owner's webhook (when set), once, through its own durable job.
    callSettled: (call) => {
      void webhooks.enqueueCall(call);
      for (const settled of services.hooks.callSettled) settled(call.id);
    },
  });
  const worker = new JobWorker({
    queue,
    handlers: { [POST_CALL_JOB]: handler },
    log,
    pollMs: o.pollMs,
    heartbeatMs: o.heartbeatMs,
    concurrency: o.concurrency,
  });

  const enqueuePostCall = async (callId: number) => {
    await markPostCallPending(database.db, callId);
    if (await queue.enqueue(POST_CALL_JOB, postCallKey(callId), { callId }, { maxAttempts: o.maxAttempts })) worker.kick();
    // Announced again because its recording arrived late: the finished job runs once more
    // for the transcript and summary (the owner is not texted twice: the notifier knows).
    else if ((await postCallWorkLeft(database.db, callId)) && (await queue.rearm(postCallKey(callId)))) worker.kick();
  };

  const orphanedCalls = orphanedCallFinder(database.db);
  const sweep = backgroundPass(async () => {
    try {
      // The whole jobs table's housekeeping (every kind), on this queue's lease.
      const { abandoned, purged } = await queue.sweep(o.retainDoneMs);
      const lost = await orphanedCalls(now().getTime() - 2 * 60_000);
      for (const id of lost) await enqueuePostCall(id);
      if (abandoned || purged || lost.length) log.info({ abandoned, purged, requeuedCalls: lost.length }, 'job housekeeping');
      worker.kick(); // stale leases are claimable now
    } catch (err) {
      log.error({ err }, 'job housekeeping failed');
    }
  });

  let task: ReturnType<typeof cron.schedule> | null = null;
  services.hooks.callFinished.push(enqueuePostCall);
  return {
    queue,
    worker,
    notifier,
    enqueuePostCall,
    sweep,
    start() {
      worker.start();
      task ??= cron.schedule('* * * * *', sweep, { name: 'job-housekeeping', noOverlap: true });
    },
    async stop() {
      await task?.stop();
      task = null;
      await worker.stop();
    },
  };
}
