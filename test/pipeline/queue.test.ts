import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../core/db/client.js';
import { JobQueue } from '../../core/jobs/queue.js';

let dir: string;
let handle: DatabaseHandle;
let clock: number;
let queue: JobQueue;
const backoff = { baseMs: 1000, maxMs: 8000, jitter: 0 };

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'queue-'));
  handle = openDatabase(path.join(dir, 'q.db'));
  clock = Date.parse('2026-03-01T12:00:00Z');
  queue = new JobQueue(handle.db, () => new Date(clock), { leaseMs: 60_000, backoff });
});
afterEach(async () => {
  await handle.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('JobQueue', () => {
  it('keeps one job per key, whatever its state', async () => {
    expect(await queue.enqueue('post-call', 'post-call:1', { callId: 1 })).toBe(true);
    expect(await queue.enqueue('post-call', 'post-call:1', { callId: 1 })).toBe(false);
    const job = (await queue.claim())!;
    await queue.complete(job);
    expect(await queue.enqueue('post-call', 'post-call:1', { callId: 1 })).toBe(false);
  });

  it('hands a due job to one claimer only', async () => {
    await queue.enqueue('k', 'a', { n: 1 });
    const first = await queue.claim();
    expect(first).toMatchObject({ key: 'a', attempt: 1, payload: { n: 1 } });
    expect(await queue.claim()).toBeNull();
  });

  it('does not hand out a job before its run time', async () => {
    await queue.enqueue('k', 'later', {}, { runAt: new Date(clock + 5000) });
    expect(await queue.claim()).toBeNull();
    clock += 5000;
    expect((await queue.claim())?.key).toBe('later');
  });

  it('retries with a doubling, bounded back-off and keeps the last error', async () => {
    await queue.enqueue('k', 'a', {}, { maxAttempts: 10 });
    const delays: number[] = [];
    for (let i = 0; i < 5; i++) {
      const job = (await queue.claim())!;
      expect(await queue.fail(job, `boom ${job.attempt}`, true)).toBe('retry');
      const row = (await queue.byKey('a'))!;
      delays.push(row.runAt.getTime() - clock);
      expect(row).toMatchObject({ status: 'pending', lastError: `boom ${job.attempt}` });
      clock = row.runAt.getTime();
    }
    expect(delays).toEqual([1000, 2000, 4000, 8000, 8000]);
  });

  it('fails for good when attempts run out or the error is not retryable', async () => {
    await queue.enqueue('k', 'a', {}, { maxAttempts: 1 });
    expect(await queue.fail((await queue.claim())!, 'engine down', true)).toBe('failed');
    expect(await queue.byKey('a')).toMatchObject({ status: 'failed', attempts: 1, lastError: 'engine down' });
    await queue.enqueue('k', 'b', {}, { maxAttempts: 5 });
    expect(await queue.fail((await queue.claim())!, 'bad audio', false)).toBe('failed');
    expect(await queue.byKey('b')).toMatchObject({ status: 'failed', attempts: 1 });
  });

  it('re-claims a running job only once its lease has expired', async () => {
    await queue.enqueue('k', 'a', {});
    const dead = (await queue.claim())!;
    clock += 59_000;
    expect(await queue.claim()).toBeNull();
    clock += 2_000;
    const again = (await queue.claim())!;
    expect(again).toMatchObject({ key: 'a', attempt: 2 });
    // The first claimer, had it survived, can no longer finish or fail the job.
    expect(await queue.complete(dead)).toBe(false);
    expect(await queue.fail(dead, 'late', true)).toBe('lost');
    expect(await queue.complete(again)).toBe(true);
  });

  it('a heartbeat keeps a long job from being taken over', async () => {
    await queue.enqueue('k', 'a', {});
    const job = (await queue.claim())!;
    clock += 50_000;
    expect(await queue.heartbeat(job)).toBe(true);
    clock += 50_000;
    expect(await queue.claim()).toBeNull();
  });

  it('gives a released job back without spending an attempt', async () => {
    await queue.enqueue('k', 'a', {});
    await queue.release((await queue.claim())!);
    expect(await queue.byKey('a')).toMatchObject({ status: 'pending', attempts: 0 });
  });

  it('housekeeping fails a job abandoned on its last attempt and purges old done jobs', async () => {
    await queue.enqueue('k', 'last', {}, { maxAttempts: 1 });
    await queue.claim();
    await queue.enqueue('k', 'old', {});
    await queue.complete((await queue.claim())!);
    clock += 61_000;
    expect(await queue.claim()).toBeNull(); // no attempts left to re-claim with
    expect(await queue.sweep(3_600_000)).toEqual({ abandoned: 1, purged: 0 });
    expect(await queue.byKey('last')).toMatchObject({ status: 'failed', lastError: 'the worker stopped during the last attempt' });
    clock += 3_600_000;
    expect(await queue.sweep(3_600_000)).toEqual({ abandoned: 0, purged: 1 });
    expect(await queue.byKey('old')).toBeUndefined();
  });
});
