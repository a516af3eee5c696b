// Issue 25: two core processes on one PostgreSQL database share one queue. Each job is
// claimed by one of them (FOR UPDATE SKIP LOCKED); when one is killed mid-run, its claimed
// job's lease lapses and the other finishes it; every owner gets each text exactly once.
import type { ChildProcess } from 'node:child_process';
import { and, eq, inArray, like } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { tablesOf } from '../../core/db/schema.js';
import { notificationBody } from '../../core/notify/message.js';
import { usePostgres } from '../helpers/use-postgres.js';
import { DID, startHarness, type Harness } from './harness.js';
import { spawnWorker } from './fixtures/spawn-worker.js';

const postgres = usePostgres();
const JOBS = 200;
let h: Harness | undefined;
const workers: ChildProcess[] = [];

afterEach(async () => {
  for (const w of workers.splice(0)) if (w.exitCode === null) w.kill('SIGKILL');
  await h?.close();
  h = undefined;
});

async function kill(worker: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => worker.once('exit', resolve));
  worker.kill('SIGKILL');
  await exited;
}

describe('two cores on one PostgreSQL queue', () => {
  it(`${JOBS} missed-call jobs, one core killed midway: every text is sent exactly once`, async () => {
    h = await startHarness({
      start: false,
      env: { DATABASE_URL: await postgres().createDatabase({ migrated: true }) },
      twilio: { messageLatencyMs: 50 },
    });
    const db = h.server.database.db;
    const { calls, jobs, notifications } = tablesOf(db);
    const rows = await db
      .insert(calls)
      .values(
        Array.from({ length: JOBS }, (_, i) => ({
          userId: h!.ownerId,
          fromNumber: `+447700900${String(i).padStart(3, '0')}`,
          toNumber: DID,
          status: 'missed' as const,
          mode: 'voicemail' as const,
          duration: 0,
          endedAt: new Date(),
        })),
      )
      .returning();
    const [first, second] = [await spawnWorker(h.server, h.twilio), await spawnWorker(h.server, h.twilio)];
    workers.push(first!, second!);
    for (const row of rows) await h.pipeline.enqueuePostCall(row.id);
    await vi.waitFor(() => expect(h!.twilio.messages.length).toBeGreaterThanOrEqual(JOBS / 4), { timeout: 60_000, interval: 10 });
    await kill(first!);
    const sentBeforeKill = h.twilio.messages.length;
    expect(sentBeforeKill).toBeLessThan(JOBS);

    const done = async () =>
      (await db.select({ id: jobs.id }).from(jobs).where(and(like(jobs.key, 'post-call:%'), eq(jobs.status, 'done')))).length;
    await vi.waitFor(async () => expect(await done()).toBe(JOBS), { timeout: 120_000, interval: 100 });

    const ids = rows.map((r) => r.id);
    const settled = await db.select().from(calls).where(inArray(calls.id, ids));
    expect(settled.every((c) => c.notificationSent)).toBe(true);
    // Each call's text was taken by Twilio once: the bodies sent are exactly the bodies due.
    const due = settled.map((c) => notificationBody(c)).sort();
    expect(h.twilio.messages.map((m) => m.body).sort()).toEqual(due);
    const sent = await db.select().from(notifications).where(and(inArray(notifications.callId, ids), eq(notifications.status, 'sent')));
    expect(sent.map((n) => Number(n.callId)).sort((a, b) => a - b)).toEqual([...ids].sort((a, b) => a - b));
  }, 240_000);
});
