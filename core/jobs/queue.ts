import type Database from 'better-sqlite3';
import { backoffDelayMs, DEFAULT_BACKOFF, type BackoffPolicy } from './backoff.js';

/** A job as a worker holds it: `attempt` is this run's number (1-based) and doubles as the fencing token. */
export interface ClaimedJob {
  id: number;
  kind: string;
  key: string;
  payload: Record<string, unknown>;
  attempt: number;
  maxAttempts: number;
}

export interface EnqueueOptions {
  runAt?: Date;
  maxAttempts?: number;
}

export interface QueueOptions {
  /** A running job whose lock is older than this belongs to a worker that died: it is claimed again. */
  leaseMs: number;
  backoff: BackoffPolicy;
  random?: () => number;
  /**
   * The job kinds this queue's workers claim (default: every kind). Jobs of other kinds in
   * the same table belong to another worker, e.g. the PBX's recording retries, which need
   * Asterisk and so cannot run in the post-call worker.
   */
  kinds?: string[];
}

interface JobRow {
  id: number;
  kind: string;
  key: string;
  payload: string;
  attempts: number;
  max_attempts: number;
}

const toClaimed = (r: JobRow): ClaimedJob => ({
  id: r.id,
  kind: r.kind,
  key: r.key,
  payload: JSON.parse(r.payload) as Record<string, unknown>,
  attempt: r.attempts,
  maxAttempts: r.max_attempts,
});

/**
 * The durable job queue in the `jobs` table. Every state change is one conditional
 * statement, so two workers (or a worker and its own ghost after a restart) can never
 * both own a job: claiming is an UPDATE that only succeeds on a due pending job or an
 * expired lease, and finishing only succeeds while `attempts` still equals the
 * claimer's attempt number.
 */
export class JobQueue {
  private readonly stmts;

  constructor(
    /** The connection the queue writes through (its callers retry a write refused as busy). */
    readonly sqlite: Database.Database,
    private readonly now: () => Date,
    private readonly opts: QueueOptions = { leaseMs: 60_000, backoff: DEFAULT_BACKOFF },
  ) {
    this.stmts = {
      enqueue: sqlite.prepare(
        `insert into jobs (kind, key, payload, status, attempts, max_attempts, run_at, updated_at)
         values (@kind, @key, @payload, 'pending', 0, @maxAttempts, @runAt, @now)
         on conflict(key) do nothing`,
      ),
      claim: sqlite.prepare(
        `update jobs set status = 'running', locked_at = @now, attempts = attempts + 1, updated_at = @now
         where id = (
           select id from jobs
           where ((status = 'pending' and run_at <= @now)
              or (status = 'running' and locked_at < @staleBefore and attempts < max_attempts))
             and (@kinds is null or kind in (select value from json_each(@kinds)))
           order by run_at, id limit 1)
           and (status = 'pending' or (status = 'running' and locked_at < @staleBefore))
         returning id, kind, key, payload, attempts, max_attempts`,
      ),
      heartbeat: sqlite.prepare(
        `update jobs set locked_at = @now where id = @id and status = 'running' and attempts = @attempt`,
      ),
      complete: sqlite.prepare(
        `update jobs set status = 'done', locked_at = null, last_error = null, updated_at = @now
         where id = @id and status = 'running' and attempts = @attempt`,
      ),
      retry: sqlite.prepare(
        `update jobs set status = 'pending', locked_at = null, run_at = @runAt, last_error = @error, updated_at = @now
         where id = @id and status = 'running' and attempts = @attempt`,
      ),
      fail: sqlite.prepare(
        `update jobs set status = 'failed', locked_at = null, last_error = @error, updated_at = @now
         where id = @id and status = 'running' and attempts = @attempt`,
      ),
      release: sqlite.prepare(
        `update jobs set status = 'pending', locked_at = null, attempts = attempts - 1, run_at = @now, updated_at = @now
         where id = @id and status = 'running' and attempts = @attempt`,
      ),
      abandonExhausted: sqlite.prepare(
        `update jobs set status = 'failed', locked_at = null, updated_at = @now,
           last_error = coalesce(last_error || ' / ', '') || 'the worker stopped during the last attempt'
         where status = 'running' and locked_at < @staleBefore and attempts >= max_attempts`,
      ),
      rearm: sqlite.prepare(
        `update jobs set status = 'pending', attempts = 0, locked_at = null, run_at = @now, last_error = null, updated_at = @now
         where key = @key and status in ('done', 'failed')`,
      ),
      purge: sqlite.prepare(`delete from jobs where status = 'done' and updated_at < @before`),
      get: sqlite.prepare(`select * from jobs where key = ?`),
    };
  }

  /** Adds a job unless one with the same key exists (whatever its state). Returns true when added. */
  enqueue(kind: string, key: string, payload: Record<string, unknown>, opts: EnqueueOptions = {}): boolean {
    const now = this.now().getTime();
    const r = this.stmts.enqueue.run({
      kind,
      key,
      payload: JSON.stringify(payload),
      maxAttempts: opts.maxAttempts ?? 8,
      runAt: opts.runAt?.getTime() ?? now,
      now,
    });
    return r.changes === 1;
  }

  /** Takes the next due job (or one whose worker died), or null when none is due. */
  claim(): ClaimedJob | null {
    const now = this.now().getTime();
    const kinds = this.opts.kinds ? JSON.stringify(this.opts.kinds) : null;
    const row = this.stmts.claim.get({ now, staleBefore: now - this.opts.leaseMs, kinds }) as JobRow | undefined;
    return row ? toClaimed(row) : null;
  }

  /** Keeps the lease of a long job fresh; false when the job is no longer ours. */
  heartbeat(job: ClaimedJob): boolean {
    return this.stmts.heartbeat.run({ id: job.id, attempt: job.attempt, now: this.now().getTime() }).changes === 1;
  }

  complete(job: ClaimedJob): boolean {
    return this.stmts.complete.run({ id: job.id, attempt: job.attempt, now: this.now().getTime() }).changes === 1;
  }

  /**
   * Records a failed attempt: retried after a bounded exponential back-off while attempts
   * remain and the error is retryable, otherwise failed for good. `lastError` is kept either way.
   */
  fail(job: ClaimedJob, error: string, retryable: boolean): 'retry' | 'failed' | 'lost' {
    const now = this.now().getTime();
    const base = { id: job.id, attempt: job.attempt, now, error: error.slice(0, 2000) };
    if (retryable && job.attempt < job.maxAttempts) {
      const runAt = now + backoffDelayMs(job.attempt, this.opts.backoff, this.opts.random);
      return this.stmts.retry.run({ ...base, runAt }).changes === 1 ? 'retry' : 'lost';
    }
    return this.stmts.fail.run(base).changes === 1 ? 'failed' : 'lost';
  }

  /**
   * Runs a finished job (done or failed) again from its first attempt, when what it works on
   * has changed since (a recording that arrived late). Handlers are idempotent, so only the
   * work still missing is done. Returns false when the job is absent or still pending/running.
   */
  rearm(key: string): boolean {
    return this.stmts.rearm.run({ key, now: this.now().getTime() }).changes === 1;
  }

  /** Gives a job back untouched (shutdown): the attempt it was on is not counted. */
  release(job: ClaimedJob): void {
    this.stmts.release.run({ id: job.id, attempt: job.attempt, now: this.now().getTime() });
  }

  /**
   * Housekeeping: a job whose worker died on its last attempt cannot be claimed again,
   * so it is marked failed; done jobs older than `retainMs` are deleted.
   */
  sweep(retainMs: number): { abandoned: number; purged: number } {
    const now = this.now().getTime();
    const abandoned = this.stmts.abandonExhausted.run({ now, staleBefore: now - this.opts.leaseMs }).changes;
    const purged = this.stmts.purge.run({ before: now - retainMs }).changes;
    return { abandoned, purged };
  }

  /** The raw row for a key (tests, diagnostics). */
  byKey(key: string): Record<string, unknown> | undefined {
    return this.stmts.get.get(key) as Record<string, unknown> | undefined;
  }
}
