import { sql } from 'drizzle-orm';
import { dialectOf, type Db } from '../db/client.js';
import * as pgJobs from '../db/pg/job-claims.js';
import { pgExecutor } from '../db/pg/pg-session.js';
import { execute, queryRow } from '../db/raw.js';
import { backoffDelayMs, DEFAULT_BACKOFF, type BackoffPolicy } from './backoff.js';
import type { ClaimedJob, EnqueueOptions } from './job-types.js';

export type { ClaimedJob, EnqueueOptions } from './job-types.js';

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
 * claimer's attempt number. On PostgreSQL, where several cores share the table, the same
 * rules are core/db/pg/job-claims.ts's statements, which also skip rows another claimer
 * has locked (FOR UPDATE SKIP LOCKED).
 */
export class JobQueue {
  /** The PostgreSQL database when the queue runs there (its statements are job-claims.ts's). */
  private get pg() {
    return dialectOf(this.db) === 'pg' ? pgExecutor(this.db) : null;
  }

  constructor(
    /** The database the queue writes through (its callers retry a write refused as busy). */
    readonly db: Db,
    private readonly now: () => Date,
    private readonly opts: QueueOptions = { leaseMs: 60_000, backoff: DEFAULT_BACKOFF },
  ) {}

  /** Adds a job unless one with the same key exists (whatever its state). Returns true when added. */
  async enqueue(kind: string, key: string, payload: Record<string, unknown>, opts: EnqueueOptions = {}): Promise<boolean> {
    if (this.pg) return pgJobs.enqueueJob(this.pg, this.now(), kind, key, payload, opts);
    const now = this.now().getTime();
    const maxAttempts = opts.maxAttempts ?? 8;
    const runAt = opts.runAt?.getTime() ?? now;
    const r = await execute(
      this.db,
      sql`insert into jobs (kind, key, payload, status, attempts, max_attempts, run_at, updated_at)
         values (${kind}, ${key}, ${JSON.stringify(payload)}, 'pending', 0, ${maxAttempts}, ${runAt}, ${now})
         on conflict(key) do nothing`,
    );
    return r.rowsAffected === 1;
  }

  /** Takes the next due job (or one whose worker died), or null when none is due. */
  async claim(): Promise<ClaimedJob | null> {
    if (this.pg) return pgJobs.claimJob(this.pg, { now: this.now(), leaseMs: this.opts.leaseMs, kinds: this.opts.kinds });
    const now = this.now().getTime();
    const staleBefore = now - this.opts.leaseMs;
    const kinds = this.opts.kinds ? JSON.stringify(this.opts.kinds) : null;
    // SQLite-only: json_each (the kinds filter). PostgreSQL claims with FOR UPDATE SKIP LOCKED.
    const row = await queryRow<JobRow>(
      this.db,
      sql`update jobs set status = 'running', locked_at = ${now}, attempts = attempts + 1, updated_at = ${now}
         where id = (
           select id from jobs
           where ((status = 'pending' and run_at <= ${now})
              or (status = 'running' and locked_at < ${staleBefore} and attempts < max_attempts))
             and (${kinds} is null or kind in (select value from json_each(${kinds})))
           order by run_at, id limit 1)
           and (status = 'pending' or (status = 'running' and locked_at < ${staleBefore}))
         returning id, kind, key, payload, attempts, max_attempts`,
    );
    return row ? toClaimed(row) : null;
  }

  /** Keeps the lease of a long job fresh; false when the job is no longer ours. */
  async heartbeat(job: ClaimedJob): Promise<boolean> {
    if (this.pg) return pgJobs.heartbeatJob(this.pg, job, this.now());
    const now = this.now().getTime();
    return (await execute(this.db, sql`update jobs set locked_at = ${now} where id = ${job.id} and status = 'running' and attempts = ${job.attempt}`)).rowsAffected === 1;
  }

  async complete(job: ClaimedJob): Promise<boolean> {
    if (this.pg) return pgJobs.completeJob(this.pg, job, this.now());
    const now = this.now().getTime();
    return (
      (
        await execute(
          this.db,
          sql`update jobs set status = 'done', locked_at = null, last_error = null, updated_at = ${now}
         where id = ${job.id} and status = 'running' and attempts = ${job.attempt}`,
        )
      ).rowsAffected === 1
    );
  }

  /**
   * Records a failed attempt: retried after a bounded exponential back-off while attempts
   * remain and the error is retryable, otherwise failed for good. `lastError` is kept either way.
   */
  async fail(job: ClaimedJob, error: string, retryable: boolean): Promise<'retry' | 'failed' | 'lost'> {
    if (this.pg) return pgJobs.failJob(this.pg, job, this.now(), error, retryable, this.opts.backoff, this.opts.random);
    const now = this.now().getTime();
    const message = error.slice(0, 2000);
    if (retryable && job.attempt < job.maxAttempts) {
      const runAt = now + backoffDelayMs(job.attempt, this.opts.backoff, this.opts.random);
      const r = await execute(
        this.db,
        sql`update jobs set status = 'pending', locked_at = null, run_at = ${runAt}, last_error = ${message}, updated_at = ${now}
         where id = ${job.id} and status = 'running' and attempts = ${job.attempt}`,
      );
      return r.rowsAffected === 1 ? 'retry' : 'lost';
    }
    const r = await execute(
      this.db,
      sql`update jobs set status = 'failed', locked_at = null, last_error = ${message}, updated_at = ${now}
         where id = ${job.id} and status = 'running' and attempts = ${job.attempt}`,
    );
    return r.rowsAffected === 1 ? 'failed' : 'lost';
  }

  /**
   * Runs a finished job (done or failed) again from its first attempt, when what it works on
   * has changed since (a recording that arrived late). Handlers are idempotent, so only the
   * work still missing is done. Returns false when the job is absent or still pending/running.
   */
  async rearm(key: string): Promise<boolean> {
    if (this.pg) return pgJobs.rearmJob(this.pg, key, this.now());
    const now = this.now().getTime();
    const r = await execute(
      this.db,
      sql`update jobs set status = 'pending', attempts = 0, locked_at = null, run_at = ${now}, last_error = null, updated_at = ${now}
         where key = ${key} and status in ('done', 'failed')`,
    );
    return r.rowsAffected === 1;
  }

  /** Gives a job back untouched (shutdown): the attempt it was on is not counted. */
  async release(job: ClaimedJob): Promise<void> {
    if (this.pg) return pgJobs.releaseJob(this.pg, job, this.now());
    const now = this.now().getTime();
    await execute(
      this.db,
      sql`update jobs set status = 'pending', locked_at = null, attempts = attempts - 1, run_at = ${now}, updated_at = ${now}
         where id = ${job.id} and status = 'running' and attempts = ${job.attempt}`,
    );
  }

  /**
   * Housekeeping: a job whose worker died on its last attempt cannot be claimed again,
   * so it is marked failed; done jobs older than `retainMs` are deleted.
   */
  async sweep(retainMs: number): Promise<{ abandoned: number; purged: number }> {
    if (this.pg) return pgJobs.sweepJobs(this.pg, this.now(), this.opts.leaseMs, retainMs);
    const now = this.now().getTime();
    const staleBefore = now - this.opts.leaseMs;
    const abandoned = (
      await execute(
        this.db,
        sql`update jobs set status = 'failed', locked_at = null, updated_at = ${now},
           last_error = coalesce(last_error || ' / ', '') || 'the worker stopped during the last attempt'
         where status = 'running' and locked_at < ${staleBefore} and attempts >= max_attempts`,
      )
    ).rowsAffected;
    const purged = (await execute(this.db, sql`delete from jobs where status = 'done' and updated_at < ${now - retainMs}`)).rowsAffected;
    return { abandoned, purged };
  }

  /** The raw row for a key (tests, diagnostics). */
  async byKey(key: string): Promise<Record<string, unknown> | undefined> {
    return queryRow(this.db, sql`select * from jobs where key = ${key}`);
  }
}
