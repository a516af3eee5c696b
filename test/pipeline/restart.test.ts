import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTwilioClient } from '../../core/twilio/client.js';
import { calls, jobs, notifications } from '../helpers/tables.js';
import { notificationBody } from '../../core/notify/message.js';
import { postCallKey } from '../../core/post-call/post-call.js';
import { speakToWav } from './audio.js';
import { spawnWorker } from './fixtures/spawn-worker.js';
import { DID, OWNER_MOBILE, startHarness, type Harness } from './harness.js';
import { useEngineDoubles } from '../helpers/engine-doubles.js';

const engines = useEngineDoubles({ transcript: 'Hello, this is Tom about the invoice.', summary: 'Tom called about the invoice.' });
let dir: string;
let wav: string;
let h: Harness;
let child: ChildProcess | null = null;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'restart-'));
  wav = speakToWav(dir, 'msg', 'Hello, this is Tom about the invoice.');
});
afterAll(async () => {
  fs.rmSync(dir, { recursive: true, force: true });
});
afterEach(async () => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
  child = null;
  await h?.close();
});

const engineEnv = () => engines.env();

/** What a worker that died mid-job leaves behind: the job running, its lease long expired. */
async function abandonRunningJob(h: Harness, callId: number) {
  await h.pipeline.enqueuePostCall(callId);
  const claimed = await h.pipeline.queue.claim();
  expect(claimed?.key).toBe(postCallKey(callId));
  await h.server.database.db
    .update(jobs)
    .set({ lockedAt: new Date(Date.now() - 10 * 60_000) })
    .where(eq(jobs.key, postCallKey(callId)));
}

describe('a worker killed mid-job', () => {
  it('leaves a running job that a restarted worker finishes exactly once', async () => {
    h = await startHarness({ env: engineEnv(), start: false });
    const id = await h.finishedCall({ recording: wav });
    await abandonRunningJob(h, id);
    h.restart();
    await vi.waitFor(async () => expect((await h.jobOf(id)).status).toBe('done'), { timeout: 15_000, interval: 20 });
    expect((await h.jobOf(id)).attempts).toBe(2);
    expect(h.twilio.messages).toHaveLength(1);
    // The row says so once the provider's answer is back (the double has the text a moment before).
    await vi.waitFor(async () => expect(await h.call(id)).toMatchObject({ aiSummary: 'Tom called about the invoice.', notificationSent: true }));
  });

  it('after a crash between the send and its record, the restarted job finds the text and does not send again', async () => {
    h = await startHarness({ env: engineEnv(), start: false });
    const id = await h.finishedCall({ status: 'missed' });
    await abandonRunningJob(h, id);
    // The dead worker had written its intent and Twilio had taken the message.
    const body = notificationBody(await h.call(id));
    await h.server.database.db.insert(notifications).values({ callId: id, userId: h.ownerId, channel: 'sms', to: OWNER_MOBILE, body, status: 'sending' });
    const sent = await createTwilioClient(h.server.config.twilio).messages.create({ to: OWNER_MOBILE, from: DID, body });

    h.restart();
    await vi.waitFor(async () => expect((await h.jobOf(id)).status).toBe('done'), { timeout: 15_000, interval: 20 });
    expect(h.twilio.messages).toHaveLength(1);
    expect(await h.attempts(id)).toMatchObject([{ status: 'sent', providerId: sent.sid }]);
    expect((await h.call(id)).notificationSent).toBe(true);
  });

  it('after a crash before the provider took the text, the restarted job sends it once', async () => {
    h = await startHarness({ env: engineEnv(), start: false });
    const id = await h.finishedCall({ status: 'missed' });
    await abandonRunningJob(h, id);
    const body = notificationBody(await h.call(id));
    await h.server.database.db.insert(notifications).values({ callId: id, userId: h.ownerId, channel: 'sms', to: OWNER_MOBILE, body, status: 'sending' });

    h.restart();
    await vi.waitFor(async () => expect((await h.jobOf(id)).status).toBe('done'), { timeout: 15_000, interval: 20 });
    expect(h.twilio.messages).toHaveLength(1);
    expect((await h.attempts(id)).map((a) => a.status)).toEqual(['failed', 'sent']);
  });

  it('SIGKILL of a real worker process mid-transcription: a restarted worker finishes the job exactly once', async () => {
    h = await startHarness({ env: engineEnv(), start: false, options: { leaseMs: 1_000 } });
    const id = await h.finishedCall({ recording: wav });
    await h.pipeline.enqueuePostCall(id);
    engines.whisper.alwaysFail = { delayMs: 60_000 }; // Whisper hangs: the child is mid-job when killed
    engines.whisper.requests.length = 0;
    child = await spawnWorker(h.server, h.twilio, { WHISPER_URL: engines.whisper.url, OLLAMA_URL: engines.ollama.url });
    await vi.waitFor(() => expect(engines.whisper.requests.length).toBeGreaterThan(0), { timeout: 20_000, interval: 50 });
    expect(await h.jobOf(id)).toMatchObject({ status: 'running', attempts: 1 });
    const exited = new Promise((resolve) => child!.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    engines.whisper.alwaysFail = null;

    h.restart();
    await vi.waitFor(async () => expect((await h.jobOf(id)).status).toBe('done'), { timeout: 15_000, interval: 20 });
    expect((await h.jobOf(id)).attempts).toBe(2);
    expect(h.twilio.messages).toHaveLength(1);
    expect(await h.call(id)).toMatchObject({ transcriptionStatus: 'done', summaryStatus: 'done', notificationSent: true });
  }, 120_000); // a child process started from source, killed, and the job's lease waited out: slow on a loaded machine

  it('a stop during a job gives the job back without spending an attempt', async () => {
    engines.whisper.alwaysFail = { delayMs: 60_000 };
    engines.whisper.requests.length = 0;
    h = await startHarness({ env: engineEnv() });
    const id = await h.finishedCall({ recording: wav });
    h.fireCallFinished(id);
    await vi.waitFor(() => expect(engines.whisper.requests.length).toBe(1), { timeout: 15_000, interval: 20 });
    await h.pipeline.stop();
    expect(await h.jobOf(id)).toMatchObject({ status: 'pending', attempts: 0, lockedAt: null });
    expect(h.twilio.messages).toHaveLength(0);
  });
});

describe('job housekeeping', () => {
  it('queues a finished call whose hook never fired (the process died first), and only once it has ended', async () => {
    h = await startHarness({ env: engineEnv() });
    const lost = await h.finishedCall({ status: 'missed' });
    const ongoing = await h.finishedCall({ status: 'missed' });
    const db = h.server.database.db;
    await db.update(calls).set({ endedAt: new Date(Date.now() - 5 * 60_000) }).where(eq(calls.id, lost));
    await db.update(calls).set({ endedAt: null }).where(eq(calls.id, ongoing));
    await h.pipeline.sweep();
    await vi.waitFor(async () => expect((await h.jobOf(lost))?.status).toBe('done'), { timeout: 15_000, interval: 20 });
    expect(await h.jobOf(ongoing)).toBeUndefined();
    expect(h.twilio.messages).toHaveLength(1);
  });
});

