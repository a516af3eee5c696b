import { randomBytes } from 'node:crypto';
import { and, eq, inArray, lt, notExists, sql } from 'drizzle-orm';
import { canRingBack } from '../../contract/callback.js';
import { callDetailsPath } from '../../contract/links.js';
import { toE164 } from '../../contract/phone.js';
import type { PushAlert, PushAlertKind } from '../../contract/push-alert.js';
import { canTextCaller } from '../caller-texts/store.js';
import type { Db } from '../db/client.js';
import { rowsAffected } from '../db/raw.js';
import { tablesOf, type Call, type PushAlertRow, type PushSubscriptionRow } from '../db/schema.js';
import { transaction } from '../db/transaction.js';
import type { CoreDeps } from '../deps.js';
import { JobQueue } from '../jobs/queue.js';
import { errorMessage, isRetryable } from '../jobs/retryable.js';
import { JobWorker, type JobHandler } from '../jobs/worker.js';
import { DEFAULT_BACKOFF, type BackoffPolicy } from '../time/backoff.js';
import { checkedAddress, type Resolver } from '../webhooks/address-guard.js';
import type { Log } from '../../contract/log.js';
import { alertBody, alertTitle, callFallbackWords, liveUrgentBody } from './alert-words.js';
import { loadTextDelay } from './device-store.js';
import { deviceWants } from './preferences.js';
import { PushDeliveryError, sendPush } from './sender.js';
import { parseEndpoint } from './validate.js';
import type { OwnerNews } from '../ports/owner-news.js';
import { loadVapidKeys, type VapidKeys } from './vapid-keys.js';

const PUSH_JOB = 'push';
/** The owner's delayed text (push settings' "text me only if not opened"): due when its wait is over. */
const PUSH_TEXT_JOB = 'push-text';
export const pushKey = (alertRowId: number) => `${PUSH_JOB}:${alertRowId}`;
const pushTextKey = (event: string) => `${PUSH_TEXT_JOB}:${event}`;

export interface PushOptions {
  /** Resolves push-service hosts (default: the system's `dns.lookup`); tests stub it. */
  resolver?: Resolver;
  /**
   * TEST-ONLY seam, set in code by the test that builds the service (never from the
   * environment), as the webhooks' `testReceiver`: lets a push-service double on 127.0.0.1
   * through the address guard and trusts its self-signed certificate. Production has neither.
   */
  testPushService?: { allowLoopback: true; ca: string };
  /** One request's limit (default 10 s). */
  timeoutMs?: number;
  backoff?: BackoffPolicy;
  /** Attempts per alert (default 8: 5 s doubling, about 10 minutes of retrying). */
  maxAttempts?: number;
  pollMs?: number;
  leaseMs?: number;
}

const DEFAULTS = { timeoutMs: 10_000, maxAttempts: 8, pollMs: 1000, leaseMs: 60_000 };

/**
 * How long a settled alert's row is kept. A row is needed only while its push is retried (about
 * ten minutes) and while a held text waits on it being opened (PUSH_TEXT_DELAY_MAX_MINUTES, an
 * hour at most); 30 days is ample, and as long as the webhooks' delivery log is kept.
 */
export const PUSH_ALERT_RETAIN_MS = 30 * 24 * 3600_000;

/** How long the push service keeps an alert for a phone that is off: a day for calls, minutes for a live call. */
const TTL_SECONDS = { settled: 24 * 3600, live: 300 };

/** What the notifier does with the owner's texts of a call, given its push alerts. */
export type TextVerdict = 'text' | 'hold' | 'opened';

/** What one alert is about, before it is made per device. */
interface AlertEvent {
  userId: number;
  event: string;
  kind: PushAlertKind;
  /** The call's attribution (calls.staff_id): a team member with view "own" is alerted only for theirs. */
  staffId: number | null;
  content: Omit<PushAlert, 'v' | 'alertId' | 'kind' | 'sentAt'>;
  ttlSeconds: number;
}

const newAlertId = () => randomBytes(12).toString('base64url');

/**
 * What is kept of an alert once it is settled: the caller's number and words are needed only
 * until the push service has them (a caller's erasure or the transcripts' retention could not
 * find them in a payload), so only the alert's shape stays.
 */
const settledPayload = (p: PushAlert): PushAlert => ({ v: 1, alertId: p.alertId, kind: p.kind, title: '', body: '', urgent: p.urgent, tag: p.tag, ...(p.callId !== undefined ? { callId: p.callId } : {}), url: '', sentAt: p.sentAt });

/**
 * Web Push alerts (issue 54): the box's VAPID keys, each eligible device's alert on the durable
 * queue (its own job kind and worker, so a push service that is down never holds a text up),
 * expired subscriptions removed, and the owner's delayed text when they asked for one.
 */
export class PushService {
  readonly queue: JobQueue;
  readonly worker: JobWorker;
  private readonly db: Db;
  private readonly o: typeof DEFAULTS & PushOptions;
  private keys: VapidKeys | null = null;
  private textSender: ((callId: number) => Promise<void>) | null = null;

  constructor(
    private readonly deps: Pick<CoreDeps, 'database' | 'now' | 'config'> & { log: Log },
    options: PushOptions = {},
  ) {
    this.o = { ...DEFAULTS, ...options };
    this.db = deps.database.db;
    this.queue = new JobQueue(this.db, deps.now, { leaseMs: this.o.leaseMs, backoff: this.o.backoff ?? DEFAULT_BACKOFF, kinds: [PUSH_JOB, PUSH_TEXT_JOB] });
    this.worker = new JobWorker({ queue: this.queue, handlers: { [PUSH_JOB]: this.pushHandler, [PUSH_TEXT_JOB]: this.textHandler }, log: deps.log, pollMs: this.o.pollMs, concurrency: 2 });
  }

  /** The address guard's options for push-service hosts (the subscribe route checks with them too). */
  get guard(): { resolver?: Resolver; allowLoopback?: boolean } {
    return { resolver: this.o.resolver, allowLoopback: this.o.testPushService?.allowLoopback };
  }

  /** The key pair, made at the first call (first start) in PUSH_VAPID_FILE. */
  vapid(): VapidKeys {
    this.keys ??= loadVapidKeys(this.deps.config.push.vapidFile);
    return this.keys;
  }

  /**
   * The post-call pipeline's way to send a call's summary texts again once the owner's wait is
   * over (it holds the notifier). Without it, texts are never held back.
   */
  useTextSender(send: (callId: number) => Promise<void>): void {
    this.textSender = send;
  }

  start(): void {
    this.vapid();
    this.worker.start();
  }

  async stop(): Promise<void> {
    await this.worker.stop();
  }

  /**
   * A call's summary is going out: an alert per device that wants it, then what to do with the
   * owner's texts. 'text' as ever, unless the owner asked to be texted only when the push was not
   * opened within N minutes and at least one alert is on its way: then 'hold' (a job sends the
   * texts when the wait is over, or at once when every push failed), or 'opened' (no text needed).
   */
  async alertCall(call: Call): Promise<TextVerdict> {
    const event = `call-${call.id}-summary`;
    const urgent = call.urgency === 'urgent';
    const caller = toE164(call.fromNumber);
    const replyable = caller !== null && (await canTextCaller(this.db, call.userId, caller));
    await this.enqueue({
      userId: call.userId,
      event,
      kind: urgent ? 'urgent' : 'call',
      staffId: call.staffId,
      ttlSeconds: TTL_SECONDS.settled,
      content: {
        title: alertTitle(call.fromNumber),
        body: alertBody(call.aiSummary, urgent, callFallbackWords(call.status, call.mode)),
        urgent,
        tag: `call-${call.id}`,
        callId: call.id,
        ...(caller && canRingBack(call) ? { callBack: caller } : {}),
        ...(replyable ? { replyUrl: `/dashboard/texts?caller=${encodeURIComponent(caller)}` } : {}),
        url: callDetailsPath(call.id),
      },
    });
    return this.textVerdict(call.userId, event);
  }

  /** An agent call in progress was flagged urgent: Listen on every device that wants urgent calls. */
  async alertLiveUrgent(callId: number, reason: string | null): Promise<void> {
    const { calls } = tablesOf(this.db);
    const call = (await this.db.select().from(calls).where(eq(calls.id, callId)).limit(1))[0];
    if (!call || call.mode !== 'agent' || call.endedAt) return;
    const caller = toE164(call.fromNumber);
    await this.enqueue({
      userId: call.userId,
      event: `call-${call.id}-live`,
      kind: 'urgent',
      staffId: call.staffId,
      ttlSeconds: TTL_SECONDS.live,
      content: {
        title: alertTitle(call.fromNumber),
        body: liveUrgentBody(reason),
        urgent: true,
        tag: `call-${call.id}`,
        callId: call.id,
        live: true,
        ...(caller && canRingBack(call) ? { callBack: caller } : {}),
        url: `/dashboard/live?call=${call.id}`,
      },
    });
  }

  /** A booking or a caller's text the owner is told about: the devices that want that kind. */
  async alertOwnerNews(n: OwnerNews): Promise<void> {
    const caller = toE164(n.callerNumber);
    const replyable = caller !== null && (await canTextCaller(this.db, n.userId, caller));
    await this.enqueue({
      userId: n.userId,
      event: n.event,
      kind: n.kind,
      staffId: n.staffId,
      ttlSeconds: TTL_SECONDS.settled,
      content: { title: n.title, body: alertBody(n.body, false, n.body), urgent: false, tag: n.event, url: n.url, ...(replyable ? { replyUrl: `/dashboard/texts?caller=${encodeURIComponent(caller)}` } : {}) },
    });
  }

  /** The service worker's report that an alert was opened (tapped, or a button pressed); idempotent. */
  async opened(userId: number, alertId: string): Promise<boolean> {
    const { pushAlerts } = tablesOf(this.db);
    const row = (await this.db.select().from(pushAlerts).where(and(eq(pushAlerts.alertId, alertId), eq(pushAlerts.userId, userId))).limit(1))[0];
    if (!row) return false;
    if (!row.openedAt) await this.db.update(pushAlerts).set({ openedAt: this.deps.now() }).where(eq(pushAlerts.id, row.id));
    return true;
  }

  /** The alerts of one event (tests, diagnostics). */
  async alertsOf(userId: number, event: string): Promise<PushAlertRow[]> {
    const { pushAlerts } = tablesOf(this.db);
    return await this.db.select().from(pushAlerts).where(and(eq(pushAlerts.userId, userId), eq(pushAlerts.event, event))).orderBy(pushAlerts.id);
  }

  /**
   * Housekeeping: alert rows older than `retainMs` go, except one still needed: its push still
   * queued or being sent, or a held text of its event still waiting on whether it was opened.
   */
  async sweep(retainMs = PUSH_ALERT_RETAIN_MS): Promise<{ purged: number }> {
    const { jobs, pushAlerts } = tablesOf(this.db);
    const before = new Date(this.deps.now().getTime() - retainMs);
    const live = ['pending', 'running'] as const;
    const pushJob = this.db.select({ one: sql`1` }).from(jobs).where(and(eq(jobs.key, sql`cast(${PUSH_JOB} as text) || ':' || ${pushAlerts.id}`), inArray(jobs.status, live)));
    const heldText = this.db.select({ one: sql`1` }).from(jobs).where(and(eq(jobs.key, sql`cast(${PUSH_TEXT_JOB} as text) || ':' || ${pushAlerts.event}`), inArray(jobs.status, live)));
    const purged = rowsAffected(await this.db.delete(pushAlerts).where(and(lt(pushAlerts.createdAt, before), notExists(pushJob), notExists(heldText))));
    return { purged };
  }

  /** The devices that take this event now: by their preferences and quiet hours, and a team member's view of the call. */
  private async eligible(e: AlertEvent): Promise<PushSubscriptionRow[]> {
    const { pushSubscriptions: s, staff } = tablesOf(this.db);
    const rows = await this.db.select({ device: s, view: staff.view }).from(s).leftJoin(staff, eq(staff.id, s.staffId)).where(eq(s.userId, e.userId));
    const at = this.deps.now();
    return rows
      .filter(({ device, view }) => {
        if (!deviceWants(device, e.kind, at)) return false;
        if (device.staffId === null) return true;
        // A member who sees their own calls only is alerted for those; news of the business (texts) is for those who see it all.
        return view === 'everything' || (e.staffId !== null && e.staffId === device.staffId && e.kind !== 'caller-text');
      })
      .map((r) => r.device);
  }

  /** One alert row and its job per eligible device; a device already alerted for the event is not alerted again. */
  private async enqueue(e: AlertEvent): Promise<number> {
    const devices = await this.eligible(e);
    if (!devices.length) return 0;
    const { pushAlerts } = tablesOf(this.db);
    let added = 0;
    for (const device of devices) {
      const alertId = newAlertId();
      const payload: PushAlert = { v: 1, alertId, kind: e.kind, sentAt: '', ...e.content };
      const queued = await transaction(this.db, async () => {
        const [row] = await this.db
          .insert(pushAlerts)
          .values({ alertId, userId: e.userId, subscriptionId: device.id, callId: e.content.callId ?? null, event: e.event, kind: e.kind, payload, createdAt: this.deps.now() })
          .onConflictDoNothing()
          .returning({ id: pushAlerts.id });
        if (!row) return false;
        await this.queue.enqueue(PUSH_JOB, pushKey(row.id), { alertRowId: row.id, ttlSeconds: e.ttlSeconds }, { maxAttempts: this.o.maxAttempts });
        return true;
      });
      if (queued) added++;
    }
    if (added) this.worker.kick();
    return added;
  }

  private async textVerdict(userId: number, event: string): Promise<TextVerdict> {
    if (!this.textSender) return 'text';
    const delay = await loadTextDelay(this.db, userId);
    if (delay === null) return 'text';
    const alerts = await this.alertsOf(userId, event);
    if (alerts.some((a) => a.openedAt)) return 'opened';
    const live = alerts.filter((a) => a.status !== 'failed');
    if (!live.length) return 'text'; // no device, or every push failed: the text goes at once
    const first = Math.min(...alerts.map((a) => a.createdAt.getTime()));
    const due = new Date(first + delay * 60_000);
    if (this.deps.now() >= due) return 'text';
    const callId = alerts[0]!.callId;
    if (callId !== null && (await this.queue.enqueue(PUSH_TEXT_JOB, pushTextKey(event), { callId }, { runAt: due, maxAttempts: 5 }))) this.worker.kick();
    return 'hold';
  }

  /** Every push of the event failed or its device is gone: a held text need not wait any longer. */
  private async textNowIfNoPushLeft(userId: number, event: string): Promise<void> {
    const { jobs, pushAlerts } = tablesOf(this.db);
    const left = await this.db
      .select({ id: pushAlerts.id })
      .from(pushAlerts)
      .where(and(eq(pushAlerts.userId, userId), eq(pushAlerts.event, event), inArray(pushAlerts.status, ['pending', 'sent'])))
      .limit(1);
    if (left.length) return;
    const now = this.deps.now();
    const hastened = await this.db
      .update(jobs)
      .set({ runAt: now, updatedAt: now })
      .where(and(eq(jobs.key, pushTextKey(event)), eq(jobs.status, 'pending')))
      .returning({ id: jobs.id });
    if (hastened.length) this.worker.kick();
  }

  private readonly textHandler: JobHandler = async (job) => {
    await this.textSender?.(Number(job.payload.callId));
  };

  private readonly pushHandler: JobHandler = async (job, { signal }) => {
    const { pushAlerts, pushSubscriptions } = tablesOf(this.db);
    const id = Number(job.payload.alertRowId);
    const alert = (await this.db.select().from(pushAlerts).where(eq(pushAlerts.id, id)).limit(1))[0];
    if (!alert || alert.status !== 'pending') return; // erased with its call or owner, or already settled
    const settle = async (set: Partial<PushAlertRow>) => {
      await this.db.update(pushAlerts).set({ ...set, payload: settledPayload(alert.payload) }).where(and(eq(pushAlerts.id, id), eq(pushAlerts.status, 'pending')));
      if (set.status === 'failed') await this.textNowIfNoPushLeft(alert.userId, alert.event);
    };
    const device = alert.subscriptionId === null ? undefined : (await this.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.id, alert.subscriptionId)).limit(1))[0];
    if (!device) return settle({ status: 'failed', error: 'the device was removed before this alert was sent' });
    const payload: PushAlert = { ...alert.payload, sentAt: this.deps.now().toISOString() };
    try {
      const endpoint = parseEndpoint(device.endpoint);
      if (!endpoint.ok) throw new PushDeliveryError(endpoint.message, false);
      // At every attempt: the name may point somewhere else since the device subscribed.
      const address = await checkedAddress(endpoint.value.hostname, { resolver: this.o.resolver, allowLoopback: this.o.testPushService?.allowLoopback });
      await sendPush({
        target: device,
        address,
        payload: JSON.stringify(payload),
        vapid: this.vapid(),
        subject: `mailto:${this.deps.config.support.email}`,
        ttlSeconds: Number(job.payload.ttlSeconds) || TTL_SECONDS.settled,
        urgency: payload.urgent ? 'high' : 'normal',
        timeoutMs: this.o.timeoutMs,
        ca: this.o.testPushService?.ca,
      });
      const now = this.deps.now();
      await this.db.update(pushAlerts).set({ status: 'sent', sentAt: now, error: null, payload: settledPayload(payload) }).where(eq(pushAlerts.id, id));
      await this.db.update(pushSubscriptions).set({ lastSentAt: now }).where(eq(pushSubscriptions.id, device.id));
    } catch (err) {
      if (signal.aborted) throw err; // shutdown: the job is given back, this was not an attempt
      const error = errorMessage(err).slice(0, 500);
      if (err instanceof PushDeliveryError && err.gone) {
        // The browser unsubscribed or the push service forgot it: the device is removed (its alerts keep their rows).
        // The alert is settled first, so whoever sees the device gone sees why it failed.
        await settle({ status: 'failed', error });
        await this.db.delete(pushSubscriptions).where(eq(pushSubscriptions.id, device.id));
        this.deps.log.info({ userId: alert.userId, device: device.id }, 'push subscription expired: device removed');
        return;
      }
      const again = isRetryable(err) && job.attempt < job.maxAttempts;
      if (again) await this.db.update(pushAlerts).set({ error }).where(eq(pushAlerts.id, id));
      else await settle({ status: 'failed', error });
      throw err; // the queue backs off (retryable) or gives up
    }
  };
}
