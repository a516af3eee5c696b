import { isDatabaseBusy, retryWhileBusy, withBusyWaitAtMost } from '../db/client.js';
import { backoffDelayMs } from '../time/backoff.js';
import { errorMessage, isRetryable } from './retryable.js';
import type { ClaimedJob, JobQueue } from './queue.js';
import type { Log } from '../../contract/log.js';

interface JobContext {
  /** Aborted when the worker stops: handlers pass it to every engine call. */
  signal: AbortSignal;
}

/** The longest a worker's own bookkeeping write may block the thread waiting for a lock. */
const BUSY_WAIT_MS = 25;

export type JobHandler = (job: ClaimedJob, ctx: JobContext) => Promise<void>;

export interface WorkerOptions {
  queue: JobQueue;
  handlers: Record<string, JobHandler>;
  log: Log;
  /** How often an idle worker looks for due jobs (retries come due without a kick). */
  pollMs?: number;
  /** Lease refresh while a job runs; must be well under the queue's lease. */
  heartbeatMs?: number;
  /** Jobs run side by side; engines are local and serial, so a small number. */
  concurrency?: number;
}

/**
 * Runs queued jobs. Each lane claims one job at a time, keeps its lease alive while the
 * handler works, then completes it or records the failure (the queue decides between
 * back-off and giving up). `kick()` wakes idle lanes at once when work is enqueued.
 */
export class JobWorker {
  private running = false;
  private readonly lanes: Promise<void>[] = [];
  private readonly inFlight = new Set<AbortController>();
  private readonly sleepers = new Set<() => void>();

  constructor(private readonly opts: WorkerOptions) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    for (let i = 0; i < (this.opts.concurrency ?? 1); i++) this.lanes.push(this.lane());
  }

  kick(): void {
    for (const wake of [...this.sleepers]) wake();
  }

  /** Stops claiming, aborts the jobs in flight (they go back to pending) and waits for the lanes. */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    for (const c of this.inFlight) c.abort(new Error('worker stopping'));
    this.kick();
    await Promise.all(this.lanes);
    this.lanes.length = 0;
  }

  private async lane(): Promise<void> {
    let busyStreak = 0;
    while (this.running) {
      let job: ClaimedJob | null = null;
      try {
        // Never sleep on the core's thread for the whole busy timeout just to look for work.
        job = await withBusyWaitAtMost(this.opts.queue.db, BUSY_WAIT_MS, () => this.opts.queue.claim());
        busyStreak = 0;
      } catch (err) {
        if (!isDatabaseBusy(err)) this.opts.log.error({ err }, 'job claim failed');
        else if (busyStreak++ === 0) this.opts.log.warn({ err: errorMessage(err) }, 'database locked by another process; jobs wait for it');
      }
      if (busyStreak > 0) {
        await this.idle(backoffDelayMs(busyStreak + 1, { baseMs: this.opts.pollMs ?? 1000, maxMs: 5_000 }));
        continue;
      }
      // A lane must outlive any one job: a throw here would silently stop the worker.
      if (job) await this.run(job).catch((err: unknown) => this.opts.log.error({ job: job?.key, err: errorMessage(err) }, 'job run failed'));
      else await this.idle();
    }
  }

  /**
   * Writes a job's outcome, waiting out a database locked by another process (a backup, an
   * operator's sqlite3 shell) instead of losing a finished job's result. Not while stopping:
   * then the lease covers it.
   */
  private record<T>(job: ClaimedJob, what: string, write: () => Promise<T>): Promise<T> {
    return retryWhileBusy(this.opts.queue.db, `job ${what} ${job.key}`, write, {
      log: this.opts.log,
      giveUp: () => !this.running,
    });
  }

  private idle(ms = this.opts.pollMs ?? 1000): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.sleepers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.sleepers.add(wake);
    });
  }

  private async run(job: ClaimedJob): Promise<void> {
    const { queue, log } = this.opts;
    const handler = this.opts.handlers[job.kind];
    if (!handler) {
      await queue.fail(job, `no handler for job kind "${job.kind}"`, false);
      return;
    }
    const controller = new AbortController();
    this.inFlight.add(controller);
    const beat = setInterval(async () => {
      try {
        await withBusyWaitAtMost(queue.db, BUSY_WAIT_MS, () => queue.heartbeat(job));
      } catch (err) {
        log.warn({ job: job.key, err: errorMessage(err) }, 'job heartbeat failed'); // the lease may lapse; the job is then re-run, not lost
      }
    }, this.opts.heartbeatMs ?? 20_000);
    let result: { ok: true } | { ok: false; err: unknown };
    try {
      await handler(job, { signal: controller.signal });
      result = { ok: true };
    } catch (err) {
      result = { ok: false, err };
    }
    try {
      if (result.ok) {
        await this.record(job, 'complete', () => queue.complete(job));
      } else if (controller.signal.aborted && !this.running) {
        // Shutdown, not failure: the next start picks it up without spending an attempt.
        await queue.release(job);
      } else {
        const { err } = result;
        const outcome = await this.record(job, 'fail', () => queue.fail(job, errorMessage(err), isRetryable(err)));
        const level = outcome === 'failed' ? 'error' : 'warn';
        log[level]({ job: job.key, attempt: job.attempt, outcome, err: errorMessage(err) }, 'job attempt failed');
      }
    } catch (err) {
      // The job's state could not be written (the database stayed locked): its lease runs
      // out and it is claimed again; handlers are idempotent, so nothing is done twice.
      log.error({ job: job.key, err: errorMessage(err) }, 'could not record the job outcome; it will run again after its lease');
    } finally {
      clearInterval(beat);
      this.inFlight.delete(controller);
    }
  }
}
