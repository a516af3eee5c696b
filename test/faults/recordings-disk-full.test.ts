// The recordings disk full (ENOSPC) when a call's recording is copied from Asterisk
// (issue 8, fault tests). No CI machine can fill a tmpfs on demand, so the failure is
// injected at the product's one write seam (pbx/recordings/disk.ts, handed to the PBX as
// PbxOptions.recordingDisk), behaving as a full disk does: part of the file is written, then
// the write fails with ENOSPC.
import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../core/config/config.js';
import { calls, jobs, notifications } from '../helpers/tables.js';
import { createPostCall, type PostCall } from '../../core/post-call/service.js';
import { postCallKey } from '../../core/post-call/post-call.js';
import { storeRecordingKey } from '../../core/jobs/recording-jobs.js';
import { createOllamaLanguageModel } from '../../models/llm/ollama.js';
import { createWhisperServerStt } from '../../models/stt/whisper-server.js';
import { THANK_YOU } from '../../dialogue/spoken/call-lines.js';
import { localDisk, type RecordingDisk } from '../../pbx/recordings/disk.js';
import { callerSpeech } from '../ari-sim/caller-audio.js';
import { APP, CALLER, startHarness, type Harness } from '../pbx/harness.js';
import { useEngineDoubles } from '../helpers/engine-doubles.js';

const MESSAGE = 'Hi, it is Sam from the bakery. The oven is broken again, please call me back today.';
const SUMMARY = 'Sam from the bakery says the oven is broken and asks for a call back today.';
const OWNER_MOBILE = '+447700900444';

/** A disk with no room left: each write puts part of the file down, then fails with ENOSPC. */
function fullDisk() {
  const disk = {
    refused: 0,
    /** Every file a write was refused on, in order: each must be removed by the store that made it. */
    refusedFiles: [] as string[],
    async writeNewFile(file: string, data: Buffer) {
      fs.writeFileSync(file, data.subarray(0, Math.floor(data.length / 2)), { flag: 'wx' });
      disk.refused++;
      disk.refusedFiles.push(file);
      throw Object.assign(new Error(`ENOSPC: no space left on device, write`), { code: 'ENOSPC', errno: -28, syscall: 'write' });
    },
  } satisfies RecordingDisk & { refused: number; refusedFiles: string[] };
  return disk;
}

/** The disk the PBX writes recordings through: the real one until a test fills it. */
const pbxDisk: RecordingDisk & { current: RecordingDisk } = { current: localDisk, writeNewFile: (file, data) => pbxDisk.current.writeNewFile(file, data) };

/** Replaces the disk under the running PBX; `undefined` puts the real one back (the operator frees some space). */
function useRecordingDisk(replacement: RecordingDisk | undefined): void {
  pbxDisk.current = replacement ?? localDisk;
}

/** Recording retries within the test's time: 100 ms doubling to 400 ms, looked for every 20 ms. */
const FAST_RETRIES = { backoff: { baseMs: 100, maxMs: 400 }, pollMs: 20 };

const engines = useEngineDoubles({ transcript: MESSAGE, summary: SUMMARY });
let h: Harness | undefined;
let pipeline: PostCall | undefined;
afterEach(async () => {
  useRecordingDisk(undefined);
  await pipeline?.stop();
  pipeline = undefined;
  await h?.close();
  h = undefined;
});

/** The harness plus the real post-call pipeline (engine doubles, texts to the outbox). */
async function start(notifyAnywayFromAttempt: number) {
  h = await startHarness({ timeScale: 20, pbx: { recordingRetry: FAST_RETRIES, recordingDisk: pbxDisk } });
  const config = loadConfig({ DATA_DIR: h.server.dataDir, ...engines.env() });
  pipeline = createPostCall(
    h.server.services,
    { stt: createWhisperServerStt({ url: config.whisper.endpoints[0]!.url }), llm: createOllamaLanguageModel({ host: config.ollama.endpoints[0]!.url, model: config.ollama.model }) },
    { pollMs: 20, heartbeatMs: 200, leaseMs: 5_000, backoff: { baseMs: 50, maxMs: 200, jitter: 0 }, maxAttempts: 200, notifyAnywayFromAttempt },
  );
  pipeline.start();
  return h;
}

async function row(harness: Harness, channelId: string) {
  return (await harness.server.database.db.select().from(calls).where(eq(calls.channelId, channelId)).limit(1))[0];
}

async function texts(harness: Harness, callId: number) {
  return await harness.server.database.db.select().from(notifications).where(eq(notifications.callId, callId));
}

async function job(harness: Harness, key: string) {
  return (await harness.server.database.db.select().from(jobs).where(eq(jobs.key, key)).limit(1))[0];
}

/** The caller leaves a message while the disk is full; returns the final row. */
async function messageWhileDiskFull(harness: Harness, disk: ReturnType<typeof fullDisk>) {
  const biz = await harness.business({ businessName: 'Bakery Ltd', smsEnabled: true, notificationNumber: OWNER_MOBILE });
  useRecordingDisk(disk);
  const call = harness.sim.call({ app: APP, from: CALLER, did: biz.did, script: { onRecord: [{ say: callerSpeech(MESSAGE) }, { press: '#' }] } });
  const outcome = await call.done;
  // The caller is thanked and hung up on as usual: the disk is not their problem.
  expect(outcome.hungUpBy).toBe('app');
  expect(outcome.heard.at(-1)).toBe(await harness.prompt(THANK_YOU, 'female'));
  const final = await vi.waitFor(
    async () => {
      const r = await row(harness, call.channelId);
      if (!r?.endedAt) throw new Error('call not finished yet');
      return r;
    },
    { timeout: 20_000 },
  );
  // Final, not "missed": a message is waiting on Asterisk, which still holds the only copy.
  expect(final).toMatchObject({ status: 'voicemail', recordingFile: null });
  expect(final.duration).toBeGreaterThan(0);
  expect(harness.sim.storedRecordingNames()).toContain(`call-${final.id}`);
  // Retried on its own while the disk stays full, and no half-written file is left behind.
  await vi.waitFor(() => expect(disk.refused).toBeGreaterThanOrEqual(3), { timeout: 20_000 });
  expect((await job(harness, storeRecordingKey(final.id)))?.status).toMatch(/^(pending|running)$/);
  expect(harness.sim.storedRecordingNames()).toContain(`call-${final.id}`);
  // Each refused write's half file is removed by its store once the write has failed (the
  // removal follows the refusal, so it is waited for; later retries may be mid-write now).
  const firstThree = disk.refusedFiles.slice(0, 3);
  await vi.waitFor(() => expect(firstThree.filter((file) => fs.existsSync(file))).toEqual([]), { timeout: 20_000 });
  expect(fs.readdirSync(harness.recordingsDir).filter((name) => !name.endsWith('.part'))).toEqual([]);
  return final;
}

/** Once the disk has room: stored once, removed from Asterisk, transcribed and summarised; one text. */
async function expectRecovered(harness: Harness, callId: number) {
  const file = `call-${callId}.wav`;
  await vi.waitFor(async () => expect((await job(harness, storeRecordingKey(callId)))?.status).toBe('done'), { timeout: 20_000 });
  await vi.waitFor(async () => expect((await job(harness, postCallKey(callId)))?.status).toBe('done'), { timeout: 20_000 });
  const db = harness.server.database.db;
  expect((await db.select().from(calls).where(eq(calls.id, callId)).limit(1))[0]).toMatchObject({
    status: 'voicemail',
    recordingFile: file,
    transcription: MESSAGE,
    transcriptionStatus: 'done',
    aiSummary: SUMMARY,
    summaryStatus: 'done',
    notificationSent: true,
  });
  expect(fs.readdirSync(harness.recordingsDir)).toEqual([file]);
  expect(fs.statSync(path.join(harness.recordingsDir, file)).size).toBeGreaterThan(44);
  expect(harness.sim.storedRecordingNames()).not.toContain(`call-${callId}`);
  expect((await texts(harness, callId)).map((t) => [t.channel, t.status])).toEqual([['sms', 'sent']]);
  expect(fs.readdirSync(path.join(harness.server.dataDir, 'outbox', 'sms'))).toHaveLength(1);
  expect(harness.finished.filter((id) => id === callId).length).toBeGreaterThanOrEqual(1);
  expect(harness.protocolProblems()).toEqual([]);
}

describe('the recordings disk full', { timeout: 60_000 }, () => {
  it('keeps the message on Asterisk, finishes the row as a voicemail, and stores it once there is room: one text, with the summary', async () => {
    const harness = await start(1_000); // the owner's text waits for the summary
    const disk = fullDisk();
    const final = await messageWhileDiskFull(harness, disk);
    expect(await texts(harness, final.id)).toEqual([]);

    useRecordingDisk(undefined); // the operator frees some space
    await expectRecovered(harness, final.id);
    expect((await texts(harness, final.id))[0]!.body).toContain(SUMMARY);
  });

  it('still full when the owner must be told: one text now ("summary follows"), the summary filled in later without a second text', async () => {
    const harness = await start(2);
    const disk = fullDisk();
    const final = await messageWhileDiskFull(harness, disk);
    await vi.waitFor(async () => expect((await texts(harness, final.id)).map((t) => t.status)).toEqual(['sent']), { timeout: 20_000 });
    expect((await texts(harness, final.id))[0]!.body).toMatch(/^New voicemail from \+447700900999 at \d\d:\d\d\. The transcript and summary will follow in your call log\. Reply DONE \d+ when called back\.$/);
    expect(harness.sim.storedRecordingNames()).toContain(`call-${final.id}`);

    useRecordingDisk(undefined);
    await expectRecovered(harness, final.id);
  });
});

describe('a message Asterisk lost before it could be stored', { timeout: 60_000 }, () => {
  it('files the call as missed and texts the owner of a missed call, once', async () => {
    const harness = await start(1_000);
    const disk = fullDisk();
    const final = await messageWhileDiskFull(harness, disk);
    // Asterisk loses its copy (it died before writing it out, or an operator cleared its spool).
    const auth = `Basic ${Buffer.from(`${harness.sim.credentials.username}:${harness.sim.credentials.password}`).toString('base64')}`;
    const removed = await fetch(`${harness.sim.url}/ari/recordings/stored/call-${final.id}`, { method: 'DELETE', headers: { authorization: auth } });
    expect(removed.status).toBe(204);
    useRecordingDisk(undefined);

    await vi.waitFor(async () => expect((await job(harness, storeRecordingKey(final.id)))?.status).toBe('failed'), { timeout: 20_000 });
    await vi.waitFor(async () => expect((await job(harness, postCallKey(final.id)))?.status).toBe('done'), { timeout: 20_000 });
    expect(await row(harness, final.channelId!)).toMatchObject({ status: 'missed', recordingFile: null });
    const sent = await texts(harness, final.id);
    expect(sent.map((t) => t.status)).toEqual(['sent']);
    expect(sent[0]!.body).toMatch(/^Missed call from /);
    expect(fs.readdirSync(harness.recordingsDir)).toEqual([]);
  });
});

describe('the recordings disk full at the end of an agent call', { timeout: 120_000 }, () => {
  it('the answered call is texted at once from its dialogue, and the conversation recording is stored later without a second text', async () => {
    const { startAgentHarness, reply, SUMMARY: AGENT_SUMMARY } = await import('../agent/harness.js');
    const a = await startAgentHarness({ pipeline: true, pbx: { recordingRetry: FAST_RETRIES, recordingDisk: pbxDisk } });
    try {
      const biz = await a.business({ businessName: 'Full Disk Plumbing', knowledgeBase: 'Q: Hours?\nA: We are open 8am to 6pm.', smsEnabled: true, notificationNumber: OWNER_MOBILE });
      a.replies([
        [/open/i, reply('question', true, 'We are open 8am to 6pm.')],
        [/goodbye/i, reply('goodbye', true, 'Thank you for calling. Goodbye.')],
      ]);
      const disk = fullDisk();
      useRecordingDisk(disk);
      const { channelId, outcome } = await a.call(biz.did, [
        { after: { agentQuietMs: 1000 }, say: 'When are you open?', onSpeak: () => (a.whisper.defaultTranscript = 'When are you open?') },
        { after: { agentQuietMs: 1000 }, say: 'Thank you, goodbye.', onSpeak: () => (a.whisper.defaultTranscript = 'Thank you, goodbye.') },
        { after: { ms: 30_000 }, hangUp: true },
      ]);
      expect(outcome.hungUpBy).toBe('app');
      const row = await a.finishedRow(channelId);
      expect(row).toMatchObject({ status: 'answered', recordingFile: null, transcriptionStatus: 'done' });
      expect(a.sim.storedRecordingNames()).toContain(`call-${row.id}`);
      const db = a.server.database.db;
      // The dialogue is the message: the owner is told now, with the summary, while the disk is still full.
      await vi.waitFor(async () => expect((await db.select().from(jobs).where(eq(jobs.key, postCallKey(row.id))).limit(1))[0]?.status).toBe('done'), { timeout: 20_000 });
      expect(disk.refused).toBeGreaterThanOrEqual(1);
      const sent = async () => await db.select().from(notifications).where(eq(notifications.callId, row.id));
      expect((await sent()).map((t) => t.status)).toEqual(['sent']);
      expect((await sent())[0]!.body).toContain(AGENT_SUMMARY);

      useRecordingDisk(undefined);
      await vi.waitFor(async () => expect((await db.select().from(calls).where(eq(calls.id, row.id)).limit(1))[0]?.recordingFile).toBe(`call-${row.id}.wav`), { timeout: 20_000 });
      expect(fs.existsSync(path.join(a.server.dataDir, 'recordings', `call-${row.id}.wav`))).toBe(true);
      await vi.waitFor(() => expect(a.sim.storedRecordingNames()).not.toContain(`call-${row.id}`));
      // The job deletes Asterisk's copy, then records itself done: wait for that, on a loaded machine too.
      await vi.waitFor(async () => expect((await db.select().from(jobs).where(eq(jobs.key, storeRecordingKey(row.id))).limit(1))[0]?.status).toBe('done'), { timeout: 20_000 });
      expect((await db.select().from(calls).where(eq(calls.id, row.id)).limit(1))[0]).toMatchObject({ status: 'answered', aiSummary: AGENT_SUMMARY });
      expect((await sent()).map((t) => t.status)).toEqual(['sent']);
    } finally {
      await a.close();
    }
  });
});
