import { and, eq, gte, inArray, lt, lte, or, sql } from 'drizzle-orm';
import { backoffDelayMs, type BackoffPolicy } from '../../jobs/backoff.js';
import type { ClaimedJob, EnqueueOptions } from '../../jobs/job-types.js';
import { jobs } from './schema.js';
import type { PgDb } from './open-postgres.js';

// The durable queue's statements on PostgreSQL (core/jobs/queue.ts holds SQLite's), with the
// same rules: claiming is one UPDATE that succeeds only on a due pending job or a running one
// whose lease lapsed (its worker died) with attempts left; `attempts` is the fencing token,
// so every later change succeeds only while it still equals the claimer's attempt number.
// Several cores share one table, so the claim locks the row it picks and skips rows another
// claimer holds (FOR UPDATE SKIP LOCKED): concurrent claimers take different jobs instead of
// queueing on one row.

export interface ClaimOptions {
  now: Date;
  /** A running job whose lock is older than this belongs to a worker that died. */
  leaseMs: number;
  /** The job kinds this worker claims (default: every kind). */
  kinds?: string[];
}

const claimed = { id: jobs.id, kind: jobs.kind, key: jobs.key, payload: jobs.payload, attempts: jobs.attempts, maxAttempts: jobs.maxAttempts };

/** The job a claimer holds: only while the row is running on its attempt number. */
const held = (job: ClaimedJob) => and(eq(jobs.id, job.id), eq(jobs.status, 'running'), eq(jobs.attempts, job.attempt));

/** Adds a job unless one with the same key exists (whatever its state). True when added. */
export async function enqueueJob(db: PgDb, now: Date, kind: string, key: string, payload: Record<string, unknown>, opts: EnqueueOptions = {}): Promise<boolean> {
  const rows = await db
    .insert(jobs)
    .values({ kind, key, payload, status: 'pending', attempts: 0, maxAttempts: opts.maxAttempts ?? 8, runAt: opts.runAt ?? now, updatedAt: now })
    .onConflictDoNothing({ target: jobs.key })
    .returning({ id: jobs.id });
  return rows.length === 1;
}

/** Takes the next due job (or one whose worker died), or null when none is due. */
export async function claimJob(db: PgDb, opts: ClaimOptions): Promise<ClaimedJob | null> {
  const staleBefore = new Date(opts.now.getTime() - opts.leaseMs);
  const next = db
    .select({ id: jobs.id })
    .from(jobs)
    .where(
      and(
        or(
          and(eq(jobs.status, 'pending'), lte(jobs.runAt, opts.now)),
          and(eq(jobs.status, 'running'), lt(jobs.lockedAt, staleBefore), lt(jobs.attempts, jobs.maxAttempts)),
        ),
        opts.kinds ? inArray(jobs.kind, opts.kinds) : undefined,
      ),
    )
    .orderBy(jobs.runAt, jobs.id)
    .limit(1)
    .for('update', { skipLocked: true });
  const rows = await db
    .update(jobs)
    .set({ status: 'running', lockedAt: opts.now, attempts: sql`${jobs.attempts} + 1`, updatedAt: opts.now })
    .where(and(inArray(jobs.id, next), or(eq(jobs.status, 'pending'), and(eq(jobs.status, 'running'), lt(jobs.lockedAt, staleBefore)))))
    .returning(claimed);
  const r = rows[0];
  return r ? { id: r.id, kind: r.kind, key: r.key, payload: r.payload, attempt: r.attempts, maxAttempts: r.maxAttempts } : null;
}

/** Keeps the lease of a long job fresh; false when the job is no longer ours. */
export async function heartbeatJob(db: PgDb, job: ClaimedJob, now: Date): Promise<boolean> {
  return (await db.update(jobs).set({ lockedAt: now }).where(held(job)).returning({ id: jobs.id })).length === 1;
}

export async function completeJob(db: PgDb, job: ClaimedJob, now: Date): Promise<boolean> {
  const rows = await db.update(jobs).set({ status: 'done', lockedAt: null, lastError: null, updatedAt: now }).where(held(job)).returning({ id: jobs.id });
  return rows.length === 1;
}

/**
 * Records a failed attempt: retried after the queue's back-off while attempts remain and the
 * error is retryable, otherwise failed for good. `lastError` is kept either way.
 */
export async function failJob(
  db: PgDb,
  job: ClaimedJob,
  now: Date,
  error: string,
  retryable: boolean,
  backoff: BackoffPolicy,
  random?: () => number,
): Promise<'retry' | 'failed' | 'lost'> {
  const lastError = error.slice(0, 2000);
  if (retryable && job.attempt < job.maxAttempts) {
    const runAt = new Date(now.getTime() + backoffDelayMs(job.attempt, backoff, random));
    const rows = await db.update(jobs).set({ status: 'pending', lockedAt: null, runAt, lastError, updatedAt: now }).where(held(job)).returning({ id: jobs.id });
    return rows.length === 1 ? 'retry' : 'lost';
  }
  const rows = await db.update(jobs).set({ status: 'failed', lockedAt: null, lastError, updatedAt: now }).where(held(job)).returning({ id: jobs.id });
  return rows.length === 1 ? 'failed' : 'lost';
}

/** Gives a job back untouched (shutdown): the attempt it was on is not counted. */
export async function releaseJob(db: PgDb, job: ClaimedJob, now: Date): Promise<void> {
  await db
    .update(jobs)
    .set({ status: 'pending', lockedAt: null, attempts: sql`${jobs.attempts} - 1`, runAt: now, updatedAt: now })
    .where(held(job));
}

/** Runs a finished job (done or failed) again from its first attempt. False when absent or still pending/running. */
export async function rearmJob(db: PgDb, key: string, now: Date): Promise<boolean> {
  const rows = await db
    .update(jobs)
    .set({ status: 'pending', attempts: 0, lockedAt: null, runAt: now, lastError: null, updatedAt: now })
    .where(and(eq(jobs.key, key), inArray(jobs.status, ['done', 'failed'])))
    .returning({ id: jobs.id });
  return rows.length === 1;
}

/**
 * Housekeeping: a job whose worker died on its last attempt cannot be claimed again, so it is
 * marked failed; done jobs older than `retainMs` are deleted.
 */
export async function sweepJobs(db: PgDb, now: Date, leaseMs: number, retainMs: number): Promise<{ abandoned: number; purged: number }> {
  const staleBefore = new Date(now.getTime() - leaseMs);
  const abandoned = await db
    .update(jobs)
    .set({
      status: 'failed',
      lockedAt: null,
      updatedAt: now,
      lastError: sql`coalesce(${jobs.lastError} || ' / ', '') || 'the worker stopped during the last attempt'`,
    })
    .where(and(eq(jobs.status, 'running'), lt(jobs.lockedAt, staleBefore), gte(jobs.attempts, jobs.maxAttempts)))
    .returning({ id: jobs.id });
  const purged = await db
    .delete(jobs)
    .where(and(eq(jobs.status, 'done'), lt(jobs.updatedAt, new Date(now.getTime() - retainMs))))
    .returning({ id: jobs.id });
  return { abandoned: abandoned.length, purged: purged.length };
}
