import { and, eq, gte, inArray, lt, lte, or, sql } from 'drizzle-orm';
import { dialectOf, type Db } from '../db/client.js';
import { tablesOf, type Tables } from '../db/schema.js';
import { backoffDelayMs, DEFAULT_BACKOFF, type BackoffPolicy } from '../time/backoff.js';
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

// Of the jobs table of the queue's database (tablesOf).
const claimedColumns = (jobs: Tables['jobs']) => ({ id: jobs.id, kind: jobs.kind, key: jobs.key, payload: jobs.payload, attempts: jobs.attempts, maxAttempts: jobs.maxAttempts });

/** The job a claimer holds: only while the row is running on its attempt number. */
const held = (jobs: Tables['jobs'], job: ClaimedJob) => and(eq(jobs.id, job.id), eq(jobs.status, 'running'), eq(jobs.attempts, job.attempt));

/**
 * The durable job queue in the `jobs` table, one code for SQLite and PostgreSQL. Every state
 * change is one conditional statement, so two workers (or a worker and its own ghost after a
 * restart) can never both own a job: claiming is an UPDATE that only succeeds on a due pending
 * job or an expired lease, and every later change only succeeds while `attempts` still equals
 * the claimer's attempt number (the fencing token). The one difference between the dialects is
 * in `claim`: on PostgreSQL, where several cores share the table, the claim locks the row it
 * picks and skips rows another claimer holds; SQLite's writers already take turns.
 */
export class JobQueue {
  constructor(
    /** The database the queue writes through (its callers retry a write refused as busy). */
    readonly db: Db,
    private readonly now: () => Date,
    private readonly opts: QueueOptions = { leaseMs: 60_000, backoff: DEFAULT_BACKOFF },
  ) {}

  /** Adds a job unless one with the same key exists (whatever its state). Returns true when added. */
  async enqueue(kind: string, key: string, payload: Record<string, unknown>, opts: EnqueueOptions = {}): Promise<boolean> {
    const { jobs } = tablesOf(this.db);
    const now = this.now();
    const rows = await this.db
      .insert(jobs)
      .values({ kind, key, payload, status: 'pending', attempts: 0, maxAttempts: opts.maxAttempts ?? 8, runAt: opts.runAt ?? now, updatedAt: now })
      .onConflictDoNothing({ target: jobs.key })
      .returning({ id: jobs.id });
    return rows.length === 1;
  }

  /** Takes the next due job (or one whose worker died), or null when none is due. */
  async claim(): Promise<ClaimedJob | null> {
    const { jobs } = tablesOf(this.db);
    const now = this.now();
    const staleBefore = new Date(now.getTime() - this.opts.leaseMs);
    const due = this.db
      .select({ id: jobs.id })
      .from(jobs)
      .where(
        and(
          or(
            and(eq(jobs.status, 'pending'), lte(jobs.runAt, now)),
            and(eq(jobs.status, 'running'), lt(jobs.lockedAt, staleBefore), lt(jobs.attempts, jobs.maxAttempts)),
          ),
          this.opts.kinds ? inArray(jobs.kind, this.opts.kinds) : undefined,
        ),
      )
      .orderBy(jobs.runAt, jobs.id)
      .limit(1);
    const rows = await this.db
      .update(jobs)
      .set({ status: 'running', lockedAt: now, attempts: sql`${jobs.attempts} + 1`, updatedAt: now })
      // Checked again on the row itself: another claimer may have taken it since it was picked.
      .where(and(inArray(jobs.id, lockedForClaim(this.db, due)), or(eq(jobs.status, 'pending'), and(eq(jobs.status, 'running'), lt(jobs.lockedAt, staleBefore)))))
      .returning(claimedColumns(jobs));
    const r = rows[0];
    return r ? { id: r.id, kind: r.kind, key: r.key, payload: r.payload, attempt: r.attempts, maxAttempts: r.maxAttempts } : null;
  }

  /** Keeps the lease of a long job fresh; false when the job is no longer ours. */
  async heartbeat(job: ClaimedJob): Promise<boolean> {
    const { jobs } = tablesOf(this.db);
    return this.changed(this.db.update(jobs).set({ lockedAt: this.now() }).where(held(jobs, job)).returning({ id: jobs.id }));
  }

  async complete(job: ClaimedJob): Promise<boolean> {
    const { jobs } = tablesOf(this.db);
    const now = this.now();
    return this.changed(this.db.update(jobs).set({ status: 'done', lockedAt: null, lastError: null, updatedAt: now }).where(held(jobs, job)).returning({ id: jobs.id }));
  }

  /**
   * Records a failed attempt: retried after a bounded exponential back-off while attempts
   * remain and the error is retryable, otherwise failed for good. `lastError` is kept either way.
   */
  async fail(job: ClaimedJob, error: string, retryable: boolean): Promise<'retry' | 'failed' | 'lost'> {
    const { jobs } = tablesOf(this.db);
    const now = this.now();
    const lastError = error.slice(0, 2000);
    if (retryable && job.attempt < job.maxAttempts) {
      const runAt = new Date(now.getTime() + backoffDelayMs(job.attempt, this.opts.backoff, this.opts.random));
      const retried = await this.changed(this.db.update(jobs).set({ status: 'pending', lockedAt: null, runAt, lastError, updatedAt: now }).where(held(jobs, job)).returning({ id: jobs.id }));
      return retried ? 'retry' : 'lost';
    }
    const failed = await this.changed(this.db.update(jobs).set({ status: 'failed', lockedAt: null, lastError, updatedAt: now }).where(held(jobs, job)).returning({ id: jobs.id }));
    return failed ? 'failed' : 'lost';
  }

  /**
   * Runs a finished job (done or failed) again from its first attempt, when what it works on
   * has changed since (a recording that arrived late). Handlers are idempotent, so only the
   * work still missing is done. Returns false when the job is absent or still pending/running.
   */
  async rearm(key: string): Promise<boolean> {
    const { jobs } = tablesOf(this.db);
    const now = this.now();
    return this.changed(
      this.db
        .update(jobs)
        .set({ status: 'pending', attempts: 0, lockedAt: null, runAt: now, lastError: null, updatedAt: now })
        .where(and(eq(jobs.key, key), inArray(jobs.status, ['done', 'failed'])))
        .returning({ id: jobs.id }),
    );
  }

  /** Gives a job back untouched (shutdown): the attempt it was on is not counted. */
  async release(job: ClaimedJob): Promise<void> {
    const { jobs } = tablesOf(this.db);
    const now = this.now();
    await this.db
      .update(jobs)
      .set({ status: 'pending', lockedAt: null, attempts: sql`${jobs.attempts} - 1`, runAt: now, updatedAt: now })
      .where(held(jobs, job));
  }

  /**
   * Housekeeping: a job whose worker died on its last attempt cannot be claimed again,
   * so it is marked failed; done jobs older than `retainMs` are deleted.
   */
  async sweep(retainMs: number): Promise<{ abandoned: number; purged: number }> {
    const { jobs } = tablesOf(this.db);
    const now = this.now();
    const staleBefore = new Date(now.getTime() - this.opts.leaseMs);
    const abandoned = await this.db
      .update(jobs)
      .set({ status: 'failed', lockedAt: null, updatedAt: now, lastError: sql`coalesce(${jobs.lastError} || ' / ', '') || 'the worker stopped during the last attempt'` })
      .where(and(eq(jobs.status, 'running'), lt(jobs.lockedAt, staleBefore), gte(jobs.attempts, jobs.maxAttempts)))
      .returning({ id: jobs.id });
    const purged = await this.db
      .delete(jobs)
      .where(and(eq(jobs.status, 'done'), lt(jobs.updatedAt, new Date(now.getTime() - retainMs))))
      .returning({ id: jobs.id });
    return { abandoned: abandoned.length, purged: purged.length };
  }

  /** The row for a key (tests, diagnostics). */
  async byKey(key: string) {
    const { jobs } = tablesOf(this.db);
    return (await this.db.select().from(jobs).where(eq(jobs.key, key)).limit(1))[0];
  }

  private async changed(statement: PromiseLike<unknown[]>): Promise<boolean> {
    return (await statement).length === 1;
  }
}

/**
 * The claim's one dialect-specific clause. On PostgreSQL concurrent claimers would otherwise
 * queue on the same first row: FOR UPDATE SKIP LOCKED makes each take a different job. SQLite
 * has no row locks and needs none: its writers take turns behind BEGIN IMMEDIATE. The call-back
 * dialler's claim (core/call-backs-store/claim.ts) uses it too.
 */
export function lockedForClaim<T extends object>(db: Db, due: T): T {
  if (dialectOf(db) !== 'pg') return due;
  // The PostgreSQL builder behind the SQLite-typed Db (core/db/open.ts) has `for`.
  return (due as unknown as { for(strength: 'update', opts: { skipLocked: boolean }): T }).for('update', { skipLocked: true });
}
