import { and, desc, eq, inArray, lt, notExists, sql } from 'drizzle-orm';
import cron from 'node-cron';
import type { Db } from '../db/client.js';
import { tablesOf, type Call, type OwnerWebhook, type WebhookDelivery } from '../db/schema.js';
import { DEFAULT_BACKOFF, type BackoffPolicy } from '../time/backoff.js';
import { JobQueue } from '../jobs/queue.js';
import { errorMessage, isRetryable } from '../jobs/retryable.js';
import type { Log } from '../../contract/log.js';
import { JobWorker, type JobHandler } from '../jobs/worker.js';
import type { CoreDeps } from '../deps.js';
import { checkedAddress, RefusedAddressError, UnresolvableHostError, type Resolver } from './address-guard.js';
import { callFinishedEvent, testEvent } from './payload.js';
import { postWebhook, WebhookDeliveryError } from './sender.js';
import { newWebhookSecret, SIGNATURE_HEADER, signatureHeader } from './signature.js';
import { parseWebhookUrl } from './url-rules.js';
import { transaction } from '../db/transaction.js';
import { rowsAffected } from '../db/raw.js';
import { backgroundPass } from '../db/background-pass.js';

const WEBHOOK_JOB = 'webhook';
export const webhookKey = (deliveryId: number) => `${WEBHOOK_JOB}:${deliveryId}`;
const STOPPED_DURING_LAST_ATTEMPT = 'the appliance stopped during the last attempt';

export interface WebhookOptions {
  /** Resolves webhook hosts (default: the system's `dns.lookup`); tests stub it. */
  resolver?: Resolver;
  /**
   * TEST-ONLY seams, set in code by the test that builds this service (never from the
   * environment): let a local receiver on 127.0.0.1 through the address guard, and trust its
   * self-signed certificate. Production has neither.
   */
  testReceiver?: { allowLoopback: true; ca: string };
  /** One request's limit, connection to last byte (default 10 s). */
  timeoutMs?: number;
  backoff?: BackoffPolicy;
  /** Attempts per delivery (default 10: with 5 s doubling to 30 min, about 1 h 25 min of retrying). */
  maxAttempts?: number;
  pollMs?: number;
  leaseMs?: number;
  heartbeatMs?: number;
}

const DEFAULTS = { timeoutMs: 10_000, maxAttempts: 10, pollMs: 1000, leaseMs: 60_000, heartbeatMs: 20_000 };

/** Shown in the console's delivery log; 50 newest are enough to see what is going wrong. */
const LOG_ROWS = 50;

export type UrlVerdict = { ok: true; url: string } | { ok: false; message: string };

/**
 * The owner's webhook: its settings, the delivery log, and the durable delivery of each
 * event through the job queue (its own kind and worker, so a slow receiver never holds up
 * a call's summary). Each attempt re-checks where the host points now and connects to the
 * address it checked.
 */
export class WebhookService {
  readonly queue: JobQueue;
  readonly worker: JobWorker;
  private readonly db: Db;
  private readonly o: typeof DEFAULTS & WebhookOptions;
  private task: ReturnType<typeof cron.schedule> | null = null;

  constructor(
    private readonly services: Pick<CoreDeps, 'database' | 'now' | 'config'> & { log: Log },
    options: WebhookOptions = {},
  ) {
    this.o = { ...DEFAULTS, ...options };
    this.db = services.database.db;
    this.queue = new JobQueue(services.database.db, services.now, {
      leaseMs: this.o.leaseMs,
      backoff: this.o.backoff ?? DEFAULT_BACKOFF,
      kinds: [WEBHOOK_JOB],
    });
    this.worker = new JobWorker({
      queue: this.queue,
      handlers: { [WEBHOOK_JOB]: this.handler },
      log: services.log,
      pollMs: this.o.pollMs,
      heartbeatMs: this.o.heartbeatMs,
      concurrency: 2,
    });
  }

  private get guard() {
    return { resolver: this.o.resolver, allowLoopback: this.o.testReceiver?.allowLoopback };
  }

  /** The owner's row, made with a fresh secret the first time it is asked for. */
  async settings(userId: number): Promise<OwnerWebhook> {
    const { ownerWebhooks } = tablesOf(this.db);
    const found = (await this.db.select().from(ownerWebhooks).where(eq(ownerWebhooks.userId, userId)).limit(1))[0];
    if (found) return found;
    await this.db
      .insert(ownerWebhooks)
      .values({ userId, url: null, secret: newWebhookSecret(), updatedAt: this.services.now() })
      .onConflictDoNothing();
    return (await this.db.select().from(ownerWebhooks).where(eq(ownerWebhooks.userId, userId)).limit(1))[0]!;
  }

  /** The shape rules, then where the host points now: the reason for a 400, or the URL to store. */
  async checkUrl(raw: string): Promise<UrlVerdict> {
    const parsed = parseWebhookUrl(raw);
    if (!parsed.ok) return parsed;
    try {
      await checkedAddress(parsed.url.hostname, this.guard);
    } catch (err) {
      if (err instanceof RefusedAddressError) {
        return { ok: false, message: `Webhook URL must point to a public internet address: ${err.detail}` };
      }
      if (err instanceof UnresolvableHostError) return { ok: false, message: `Webhook URL's host ${err.host} could not be found` };
      throw err;
    }
    return { ok: true, url: parsed.url.toString() };
  }

  async setUrl(userId: number, url: string | null): Promise<OwnerWebhook> {
    const { ownerWebhooks } = tablesOf(this.db);
    await this.settings(userId);
    await this.db.update(ownerWebhooks).set({ url, updatedAt: this.services.now() }).where(eq(ownerWebhooks.userId, userId));
    return this.settings(userId);
  }

  async rotateSecret(userId: number): Promise<OwnerWebhook> {
    const { ownerWebhooks } = tablesOf(this.db);
    await this.settings(userId);
    await this.db.update(ownerWebhooks).set({ secret: newWebhookSecret(), updatedAt: this.services.now() }).where(eq(ownerWebhooks.userId, userId));
    return this.settings(userId);
  }

  async deliveries(userId: number, limit = LOG_ROWS): Promise<WebhookDelivery[]> {
    const { webhookDeliveries } = tablesOf(this.db);
    return await this.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.userId, userId)).orderBy(desc(webhookDeliveries.id)).limit(limit);
  }

  /**
   * Queues a finished call's event when its owner has a webhook: once per call, ever (the
   * post-call job may run again). The log row and its job are written in one transaction.
   */
  async enqueueCall(call: Pick<Call, 'id' | 'userId'>): Promise<boolean> {
    const { ownerWebhooks } = tablesOf(this.db);
    const hook = (await this.db.select({ url: ownerWebhooks.url }).from(ownerWebhooks).where(eq(ownerWebhooks.userId, call.userId)).limit(1))[0];
    if (!hook?.url) return false;
    const added = await transaction(this.db, async () => {
      const { webhookDeliveries } = tablesOf(this.db);
      const [row] = await this.db
        .insert(webhookDeliveries)
        .values({ userId: call.userId, callId: call.id, event: 'call.finished', updatedAt: this.services.now() })
        .onConflictDoNothing()
        .returning({ id: webhookDeliveries.id });
      if (!row) return false;
      await this.queue.enqueue(WEBHOOK_JOB, webhookKey(row.id), { deliveryId: row.id }, { maxAttempts: this.o.maxAttempts });
      return true;
    });
    if (added) this.worker.kick();
    return added;
  }

  /** The console's "Send test event": null when the owner has no webhook URL. */
  async enqueueTest(userId: number): Promise<WebhookDelivery | null> {
    if (!(await this.settings(userId)).url) return null;
    const row = await transaction(this.db, async () => {
      const { webhookDeliveries } = tablesOf(this.db);
      const [r] = await this.db.insert(webhookDeliveries).values({ userId, event: 'webhook.test', updatedAt: this.services.now() }).returning();
      await this.queue.enqueue(WEBHOOK_JOB, webhookKey(r!.id), { deliveryId: r!.id }, { maxAttempts: this.o.maxAttempts });
      return r!;
    });
    this.worker.kick();
    return row;
  }

  /**
   * Housekeeping, after the queue's own sweep: a pending log row whose job will never run
   * again (the worker died during the last attempt, so the queue gave the job up) is settled
   * as failed, so the console's log does not show it waiting for ever; then settled rows older
   * than `retainMs` go (pending ones stay until their job settles them).
   */
  async sweep(retainMs = 30 * 24 * 3600_000): Promise<{ settled: number; purged: number }> {
    const { jobs, webhookDeliveries } = tablesOf(this.db);
    const now = this.services.now();
    const settled = rowsAffected(await this.db
      .update(webhookDeliveries)
      .set({ status: 'failed', lastError: STOPPED_DURING_LAST_ATTEMPT, updatedAt: now })
      .where(
        and(
          eq(webhookDeliveries.status, 'pending'),
          notExists(
            this.db
              .select({ one: sql`1` })
              .from(jobs)
              .where(and(eq(jobs.key, sql`cast(${WEBHOOK_JOB} as text) || ':' || ${webhookDeliveries.id}`), inArray(jobs.status, ['pending', 'running']))),
          ),
        ),
      ));
    const before = new Date(now.getTime() - retainMs);
    const purged = rowsAffected(await this.db
      .delete(webhookDeliveries)
      .where(and(inArray(webhookDeliveries.status, ['delivered', 'failed']), lt(webhookDeliveries.createdAt, before))));
    return { settled, purged };
  }

  /** Starts the delivery worker and the delivery log's housekeeping (every minute). */
  start(): void {
    this.worker.start();
    this.task ??= cron.schedule('* * * * *', backgroundPass(() => this.housekeeping()), { name: 'webhook-housekeeping', noOverlap: true });
  }

  async stop(): Promise<void> {
    await this.task?.stop();
    this.task = null;
    await this.worker.stop();
  }

  private async housekeeping(): Promise<void> {
    try {
      const { settled } = await this.sweep();
      if (settled) this.services.log.info({ webhookDeliveriesSettled: settled }, 'webhook housekeeping');
    } catch (err) {
      this.services.log.error({ err }, 'webhook housekeeping failed');
    }
  }

  private readonly handler: JobHandler = async (job, { signal }) => {
    const { calls, ownerWebhooks, webhookDeliveries } = tablesOf(this.db);
    const id = Number(job.payload.deliveryId);
    const delivery = (await this.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id)).limit(1))[0];
    if (!delivery || delivery.status !== 'pending') return; // erased with its call or owner, or already settled
    const now = this.services.now();
    const record = async (set: Partial<WebhookDelivery>) =>
      await this.db
        .update(webhookDeliveries)
        .set({ attempts: job.attempt, updatedAt: this.services.now(), ...set })
        .where(and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.status, 'pending')));
    const hook = (await this.db.select().from(ownerWebhooks).where(eq(ownerWebhooks.userId, delivery.userId)).limit(1))[0];
    if (!hook?.url) return void record({ status: 'failed', lastError: 'the webhook was turned off before this event was delivered' });
    let event;
    if (delivery.event === 'webhook.test') event = testEvent(id, now, this.services.config.publicUrl);
    else {
      const call = delivery.callId === null ? undefined : (await this.db.select().from(calls).where(eq(calls.id, delivery.callId)).limit(1))[0];
      if (!call) return void record({ status: 'failed', lastError: 'the call was deleted before this event was delivered' });
      event = callFinishedEvent(id, call, this.services.config.publicUrl);
    }
    const body = JSON.stringify(event);
    try {
      const parsed = parseWebhookUrl(hook.url);
      if (!parsed.ok) throw new WebhookDeliveryError(parsed.message, false);
      // Again at every attempt: the name may point somewhere else since it was saved (DNS rebinding).
      const address = await checkedAddress(parsed.url.hostname, this.guard);
      const timestamp = Math.floor(this.services.now().getTime() / 1000);
      const { status } = await postWebhook({
        url: parsed.url,
        address,
        body,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'CallKeeper-Webhooks/1',
          'x-callkeeper-event': event.event,
          'x-callkeeper-delivery': String(id),
          [SIGNATURE_HEADER.toLowerCase()]: signatureHeader(hook.secret, timestamp, body),
        },
        timeoutMs: this.o.timeoutMs,
        signal,
        ca: this.o.testReceiver?.ca,
      });
      await record({ status: 'delivered', httpStatus: status, lastError: null, deliveredAt: this.services.now() });
    } catch (err) {
      if (signal.aborted) throw err; // shutdown: the job is given back, this was not an attempt
      const again = isRetryable(err) && job.attempt < job.maxAttempts;
      const httpStatus = (err as { httpStatus?: unknown }).httpStatus;
      await record({ status: again ? 'pending' : 'failed', lastError: errorMessage(err).slice(0, 500), httpStatus: typeof httpStatus === 'number' ? httpStatus : null });
      throw err; // the queue backs off (retryable) or gives up
    }
  };
}
