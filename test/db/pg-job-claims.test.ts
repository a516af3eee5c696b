// The durable queue's statements on PostgreSQL (core/db/pg/job-claims.ts): claimers on
// separate connection pools (as separate cores would be) each take a job exactly once, a
// lapsed lease is taken over by another worker, and the first worker's late writes are
// fenced off by the attempt number.
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_BACKOFF } from '../../core/jobs/backoff.js';
import { claimJob, completeJob, enqueueJob, failJob, heartbeatJob, rearmJob, releaseJob, sweepJobs } from '../../core/db/pg/job-claims.js';
import { openPostgres, type PostgresHandle } from '../../core/db/pg/open-postgres.js';
import { jobs } from '../../core/db/pg/schema.js';
import { usePostgres } from '../helpers/use-postgres.js';

const server = usePostgres();
const quiet = { info: () => {}, warn: () => {} };
const LEASE = 60_000;

async function fresh(): Promise<string> {
  return server().createDatabase({ migrated: true });
}

async function rowOf(h: PostgresHandle, key: string) {
  return (await h.db.select().from(jobs).where(eq(jobs.key, key)).limit(1))[0];
}

describe('job claims on PostgreSQL', () => {
  let url: string;
  beforeAll(async () => {
    url = await fresh();
  });

  it('two claimers with four loops each take 200 jobs, each exactly once', async () => {
    const a = await openPostgres(url, quiet, { maxConnections: 4 });
    const b = await openPostgres(url, quiet, { maxConnections: 4 });
    try {
      const now = new Date('2026-11-24T12:00:00Z');
      for (let i = 0; i < 200; i++) expect(await enqueueJob(a.db, now, 'post-call', `post-call:${i}`, { callId: i })).toBe(true);
      // The same key again is not a second job.
      expect(await enqueueJob(b.db, now, 'post-call', 'post-call:7', { callId: 7 })).toBe(false);

      const taken: { worker: string; key: string; attempt: number }[] = [];
      const loop = async (worker: string, h: PostgresHandle) => {
        for (;;) {
          const job = await claimJob(h.db, { now, leaseMs: LEASE });
          if (!job) return;
          taken.push({ worker, key: job.key, attempt: job.attempt });
          expect(await completeJob(h.db, job, now)).toBe(true);
        }
      };
      await Promise.all([...[1, 2, 3, 4].map(() => loop('a', a)), ...[1, 2, 3, 4].map(() => loop('b', b))]);

      const keys = taken.map((t) => t.key).sort();
      expect(keys).toEqual(Array.from({ length: 200 }, (_, i) => `post-call:${i}`).sort());
      expect(new Set(taken.map((t) => t.attempt))).toEqual(new Set([1]));
      // Both cores did work: the claims ran side by side, not one after the other.
      expect(taken.filter((t) => t.worker === 'a').length).toBeGreaterThan(0);
      expect(taken.filter((t) => t.worker === 'b').length).toBeGreaterThan(0);
      const states = await a.db.select({ status: jobs.status, attempts: jobs.attempts }).from(jobs);
      expect(states.filter((s) => s.status === 'done' && s.attempts === 1)).toHaveLength(200);
    } finally {
      await a.close();
      await b.close();
    }
  }, 120_000);

  it('takes over a job whose lease lapsed, and fences off the dead worker', async () => {
    const h = await openPostgres(await fresh(), quiet);
    try {
      const t0 = new Date('2026-11-24T12:00:00Z');
      const at = (ms: number) => new Date(t0.getTime() + ms);
      await enqueueJob(h.db, t0, 'post-call', 'post-call:1', { callId: 1 }, { maxAttempts: 2 });
      const first = await claimJob(h.db, { now: t0, leaseMs: LEASE });
      expect(first).toMatchObject({ key: 'post-call:1', attempt: 1, payload: { callId: 1 } });
      // Within the lease (kept fresh by a heartbeat) nobody else gets it.
      expect(await heartbeatJob(h.db, first!, at(30_000))).toBe(true);
      expect(await claimJob(h.db, { now: at(30_000 + LEASE - 1), leaseMs: LEASE })).toBeNull();
      // The worker dies; once the lease lapses another takes the job over on the next attempt.
      const second = await claimJob(h.db, { now: at(30_000 + LEASE + 1), leaseMs: LEASE });
      expect(second).toMatchObject({ key: 'post-call:1', attempt: 2 });
      // The first worker's late writes change nothing.
      expect(await completeJob(h.db, first!, at(100_000))).toBe(false);
      expect(await failJob(h.db, first!, at(100_000), 'late', true, DEFAULT_BACKOFF)).toBe('lost');
      expect(await heartbeatJob(h.db, first!, at(100_000))).toBe(false);
      expect(await rowOf(h, 'post-call:1')).toMatchObject({ status: 'running', attempts: 2 });
      // On its last attempt a dead worker's job is not claimed again: the sweep fails it.
      expect(await claimJob(h.db, { now: at(10 * LEASE), leaseMs: LEASE })).toBeNull();
      expect(await sweepJobs(h.db, at(10 * LEASE), LEASE, 86_400_000)).toEqual({ abandoned: 1, purged: 0 });
      expect(await rowOf(h, 'post-call:1')).toMatchObject({ status: 'failed', lastError: 'the worker stopped during the last attempt', lockedAt: null });
      // Rearmed, it runs again from its first attempt.
      expect(await rearmJob(h.db, 'post-call:1', at(11 * LEASE))).toBe(true);
      expect(await claimJob(h.db, { now: at(11 * LEASE), leaseMs: LEASE })).toMatchObject({ attempt: 1 });
    } finally {
      await h.close();
    }
  });

  it('retries after the back-off, releases without counting the attempt, and claims only its kinds', async () => {
    const h = await openPostgres(await fresh(), quiet);
    try {
      const t0 = new Date('2026-11-24T12:00:00Z');
      await enqueueJob(h.db, t0, 'recording', 'recording:1', {});
      await enqueueJob(h.db, t0, 'post-call', 'post-call:1', {});
      expect(await claimJob(h.db, { now: t0, leaseMs: LEASE, kinds: ['webhook'] })).toBeNull();
      const job = await claimJob(h.db, { now: t0, leaseMs: LEASE, kinds: ['post-call'] });
      expect(job).toMatchObject({ key: 'post-call:1', attempt: 1 });
      expect(await failJob(h.db, job!, t0, 'Ollama timed out', true, { baseMs: 1_000, maxMs: 1_000 }, () => 0.5)).toBe('retry');
      const row = await rowOf(h, 'post-call:1');
      expect(row).toMatchObject({ status: 'pending', lastError: 'Ollama timed out', attempts: 1 });
      expect(row!.runAt.getTime()).toBeGreaterThan(t0.getTime());
      // Not due yet: the other kind is claimed meanwhile; released, it is due again at once.
      const other = await claimJob(h.db, { now: t0, leaseMs: LEASE });
      expect(other).toMatchObject({ key: 'recording:1', attempt: 1 });
      await releaseJob(h.db, other!, t0);
      expect(await rowOf(h, 'recording:1')).toMatchObject({ status: 'pending', attempts: 0 });
      const again = await claimJob(h.db, { now: row!.runAt, leaseMs: LEASE });
      expect(again).toMatchObject({ key: 'recording:1', attempt: 1 });
      expect(await claimJob(h.db, { now: row!.runAt, leaseMs: LEASE })).toMatchObject({ key: 'post-call:1', attempt: 2 });
    } finally {
      await h.close();
    }
  });
});
