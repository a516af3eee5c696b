// The durable queue (core/jobs/queue.ts, one code for both dialects) on PostgreSQL: claimers
// on separate connection pools (as separate cores would be) each take a job exactly once, a
// lapsed lease is taken over by another worker, and the first worker's late writes are
// fenced off by the attempt number.
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { openAppDatabase } from '../../core/db/open.js';
import { tablesOf } from '../../core/db/schema.js';
import type { DatabaseHandle } from '../../core/db/client.js';
import { JobQueue, type QueueOptions } from '../../core/jobs/queue.js';
import { DEFAULT_BACKOFF } from '../../core/time/backoff.js';
import { usePostgres } from '../helpers/use-postgres.js';

const server = usePostgres();
const quiet = { info: () => {}, warn: () => {} };
const LEASE = 60_000;
const T0 = new Date('2026-11-24T12:00:00Z').getTime();

async function open(url?: string): Promise<DatabaseHandle> {
  return openAppDatabase({ kind: 'postgres', url: url ?? (await server().createDatabase({ migrated: true })) }, quiet);
}

/** A queue on its own clock, as one worker of one core sees it. */
function worker(h: DatabaseHandle, opts: Partial<QueueOptions> = {}) {
  const clock = { ms: T0 };
  const queue = new JobQueue(h.db, () => new Date(clock.ms), { leaseMs: LEASE, backoff: DEFAULT_BACKOFF, ...opts });
  return { queue, at: (ms: number) => ((clock.ms = T0 + ms), queue) };
}

async function rowOf(h: DatabaseHandle, key: string) {
  const { jobs } = tablesOf(h.db);
  return (await h.db.select().from(jobs).where(eq(jobs.key, key)).limit(1))[0];
}

describe('the job queue on PostgreSQL', () => {
  let url: string;
  beforeAll(async () => {
    url = await server().createDatabase({ migrated: true });
  });

  it('two claimers with four loops each take 200 jobs, each exactly once', async () => {
    const a = await open(url);
    const { jobs } = tablesOf(a.db);
    const b = await open(url);
    try {
      const qa = worker(a).queue;
      const qb = worker(b).queue;
      for (let i = 0; i < 200; i++) expect(await qa.enqueue('post-call', `post-call:${i}`, { callId: i })).toBe(true);
      // The same key again is not a second job.
      expect(await qb.enqueue('post-call', 'post-call:7', { callId: 7 })).toBe(false);

      const taken: { worker: string; key: string; attempt: number }[] = [];
      const loop = async (name: string, queue: JobQueue) => {
        for (;;) {
          const job = await queue.claim();
          if (!job) return;
          taken.push({ worker: name, key: job.key, attempt: job.attempt });
          expect(await queue.complete(job)).toBe(true);
        }
      };
      await Promise.all([...[1, 2, 3, 4].map(() => loop('a', qa)), ...[1, 2, 3, 4].map(() => loop('b', qb))]);

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
    const h = await open();
    try {
      const first = worker(h);
      const second = worker(h);
      await first.at(0).enqueue('post-call', 'post-call:1', { callId: 1 }, { maxAttempts: 2 });
      const job = await first.at(0).claim();
      expect(job).toMatchObject({ key: 'post-call:1', attempt: 1, payload: { callId: 1 } });
      // Within the lease (kept fresh by a heartbeat) nobody else gets it.
      expect(await first.at(30_000).heartbeat(job!)).toBe(true);
      expect(await second.at(30_000 + LEASE - 1).claim()).toBeNull();
      // The worker dies; once the lease lapses another takes the job over on the next attempt.
      expect(await second.at(30_000 + LEASE + 1).claim()).toMatchObject({ key: 'post-call:1', attempt: 2 });
      // The first worker's late writes change nothing.
      expect(await first.at(100_000).complete(job!)).toBe(false);
      expect(await first.at(100_000).fail(job!, 'late', true)).toBe('lost');
      expect(await first.at(100_000).heartbeat(job!)).toBe(false);
      expect(await rowOf(h, 'post-call:1')).toMatchObject({ status: 'running', attempts: 2 });
      // On its last attempt a dead worker's job is not claimed again: the sweep fails it.
      expect(await second.at(10 * LEASE).claim()).toBeNull();
      expect(await second.at(10 * LEASE).sweep(86_400_000)).toEqual({ abandoned: 1, purged: 0 });
      expect(await rowOf(h, 'post-call:1')).toMatchObject({ status: 'failed', lastError: 'the worker stopped during the last attempt', lockedAt: null });
      // Rearmed, it runs again from its first attempt.
      expect(await second.at(11 * LEASE).rearm('post-call:1')).toBe(true);
      expect(await second.at(11 * LEASE).claim()).toMatchObject({ attempt: 1 });
    } finally {
      await h.close();
    }
  });

  it('retries after the back-off, releases without counting the attempt, and claims only its kinds', async () => {
    const h = await open();
    try {
      const all = worker(h, { backoff: { baseMs: 1_000, maxMs: 1_000 }, random: () => 0.5 });
      const webhooks = worker(h, { kinds: ['webhook'] });
      const postCall = worker(h, { kinds: ['post-call'], backoff: { baseMs: 1_000, maxMs: 1_000 }, random: () => 0.5 });
      await all.at(0).enqueue('recording', 'recording:1', {});
      await all.at(0).enqueue('post-call', 'post-call:1', {});
      expect(await webhooks.at(0).claim()).toBeNull();
      const job = await postCall.at(0).claim();
      expect(job).toMatchObject({ key: 'post-call:1', attempt: 1 });
      expect(await postCall.at(0).fail(job!, 'Ollama timed out', true)).toBe('retry');
      const row = await rowOf(h, 'post-call:1');
      expect(row).toMatchObject({ status: 'pending', lastError: 'Ollama timed out', attempts: 1 });
      expect(row!.runAt.getTime()).toBe(T0 + 1_000);
      // Not due yet: the other kind is claimed meanwhile; released, it is due again at once.
      const other = await all.at(0).claim();
      expect(other).toMatchObject({ key: 'recording:1', attempt: 1 });
      await all.at(0).release(other!);
      expect(await rowOf(h, 'recording:1')).toMatchObject({ status: 'pending', attempts: 0 });
      expect(await all.at(1_000).claim()).toMatchObject({ key: 'recording:1', attempt: 1 });
      expect(await all.at(1_000).claim()).toMatchObject({ key: 'post-call:1', attempt: 2 });
    } finally {
      await h.close();
    }
  });
});
