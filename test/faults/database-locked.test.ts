// The database locked by another process (a backup tool, an operator's sqlite3 shell) for
// longer than the busy timeout, just as a call finishes or a job completes (issue 8, fault
// tests). The lock is real: `BEGIN EXCLUSIVE` held by a separate process on the same file
// (better-sqlite3 blocks its own thread while it waits, so it cannot come from this one).
// The core's connection gets a 200 ms busy timeout here instead of its 5 s, so "longer than
// the busy timeout" does not cost the test whole seconds; nothing else about it changes.
import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../core/config/config.js';
import { busyRefusals, sqliteOf } from '../../core/db/client.js';
import { calls, jobs, notifications } from '../helpers/tables.js';
import type { MessageGateway } from '../../core/notify/gateway.js';
import { gatewayFromConfig } from '../../core/notify/gateway-from-config.js';
import { createPostCall, type PostCall } from '../../core/post-call/service.js';
import { postCallKey } from '../../core/post-call/post-call.js';
import { createOllamaLanguageModel } from '../../models/llm/ollama.js';
import { createWhisperServerStt } from '../../models/stt/whisper-server.js';
import { THANK_YOU } from '../../dialogue/spoken/call-lines.js';
import { callerSpeech } from '../ari-sim/caller-audio.js';
import { APP, CALLER, startHarness as startPbxHarness, type Harness as PbxHarness } from '../pbx/harness.js';
import { OWNER_MOBILE, startHarness as startPipelineHarness, type Harness as PipelineHarness } from '../pipeline/harness.js';
import { useEngineDoubles } from '../helpers/engine-doubles.js';
import { startLockHolder } from '../helpers/lock-holder.js';

const BUSY_TIMEOUT_MS = 200;

const engines = useEngineDoubles();
const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const f of cleanups.splice(0).reverse()) await f();
});

describe('the database locked by a backup for longer than the busy timeout', { timeout: 60_000 }, () => {
  it('as a call finishes: the row is written once the lock goes, the message is kept, the caller was not kept waiting, one text', async () => {
    const MESSAGE = 'Hello, this is Ana about the quote for the new kitchen.';
    engines.whisper.defaultTranscript = MESSAGE;
    engines.ollama.replier = () => 'Ana called about the quote for the new kitchen.';
    const h: PbxHarness = await startPbxHarness({ timeScale: 20 });
    cleanups.push(() => h.close());
    const config = loadConfig({ DATA_DIR: h.server.dataDir, ...engines.env() });
    const stt = createWhisperServerStt({ url: config.whisper.endpoints[0]!.url });
    const llm = createOllamaLanguageModel({ host: config.ollama.endpoints[0]!.url, model: config.ollama.model });
    const pipeline: PostCall = createPostCall(h.server.services, { stt, llm }, { pollMs: 50, heartbeatMs: 200, leaseMs: 10_000, backoff: { baseMs: 50, maxMs: 200, jitter: 0 }, notifyAnywayFromAttempt: 1 });
    pipeline.start();
    cleanups.push(() => pipeline.stop());
    sqliteOf(h.server.database).pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    const holder = await startLockHolder(path.join(h.server.dataDir, 'appliance.db'));
    cleanups.push(() => holder.stop());

    const biz = await h.business({ businessName: 'Locked Ltd', smsEnabled: true, notificationNumber: OWNER_MOBILE });
    const call = h.sim.call({
      app: APP,
      from: CALLER,
      did: biz.did,
      script: { onRecord: [{ say: callerSpeech(MESSAGE) }, { press: '#' }] },
    });
    // The row is open; from here to the hang-up the call writes nothing until it is finished.
    await vi.waitFor(() => expect(h.sim.sentEvents.some((e) => e.type === 'RecordingStarted')).toBe(true), { timeout: 20_000 });
    const refusedBefore = busyRefusals(h.server.database.db);
    await holder.lock();
    const outcome = await call.done;
    // The caller is thanked and hung up on while the database is still locked.
    expect(outcome.hungUpBy).toBe('app');
    expect(outcome.heard.at(-1)).toBe(await h.prompt(THANK_YOU, 'female'));
    // The finished call's row write was refused (busy) at least once…
    await vi.waitFor(() => expect(busyRefusals(h.server.database.db)).toBeGreaterThan(refusedBefore), { timeout: 20_000 });
    const db = h.server.database.db;
    const open = (await db.select().from(calls).where(eq(calls.channelId, call.channelId)).limit(1))[0]!;
    expect(open.endedAt).toBeNull();
    // …and until it lands, Asterisk keeps its copy of the message.
    expect(h.sim.storedRecordingNames()).toContain(`call-${open.id}`);
    await holder.unlock();

    const row = await vi.waitFor(
      async () => {
        const r = (await db.select().from(calls).where(eq(calls.id, open.id)).limit(1))[0]!;
        if (!r.endedAt) throw new Error('not finished yet');
        return r;
      },
      { timeout: 20_000 },
    );
    expect(row).toMatchObject({ status: 'voicemail', recordingFile: `call-${row.id}.wav` });
    expect(row.duration).toBeGreaterThan(0);
    expect(fs.existsSync(path.join(h.recordingsDir, row.recordingFile!))).toBe(true);
    await vi.waitFor(() => expect(h.sim.storedRecordingNames()).not.toContain(`call-${row.id}`));
    expect(h.finished).toEqual([row.id]);
    await vi.waitFor(async () => expect((await db.select().from(jobs).where(eq(jobs.key, postCallKey(row.id))).limit(1))[0]?.status).toBe('done'), { timeout: 20_000 });
    expect((await db.select().from(calls).where(eq(calls.id, row.id)).limit(1))[0]).toMatchObject({ transcription: MESSAGE, summaryStatus: 'done', notificationSent: true });
    const texts = await db.select().from(notifications).where(eq(notifications.callId, row.id));
    expect(texts.map((t) => [t.channel, t.status])).toEqual([['sms', 'sent']]);
    expect(fs.readdirSync(path.join(h.server.dataDir, 'outbox', 'sms'))).toHaveLength(1);
    expect(h.protocolProblems()).toEqual([]);
  });

  it('as a new call arrives: the caller is answered at once, the row is written when the lock goes, and the message is kept', async () => {
    const h: PbxHarness = await startPbxHarness({ timeScale: 20 });
    cleanups.push(() => h.close());
    sqliteOf(h.server.database).pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    const holder = await startLockHolder(path.join(h.server.dataDir, 'appliance.db'));
    cleanups.push(() => holder.stop());
    const biz = await h.business({ businessName: 'Backup Hour Ltd' });
    await holder.lock();
    const refusedBefore = busyRefusals(h.server.database.db);
    const call = h.sim.call({ app: APP, from: CALLER, did: biz.did, script: { onRecord: [{ say: callerSpeech('Hello, please call me back.') }, { press: '#' }] } });
    const answered = () => h.sim.restLog.some((r) => r.operation === 'channels.answer' && r.path.includes(call.channelId));
    await vi.waitFor(() => expect(busyRefusals(h.server.database.db)).toBeGreaterThan(refusedBefore), { timeout: 20_000 });
    expect(answered()).toBe(true);
    const db = h.server.database.db;
    await holder.unlock();
    const outcome = await call.done;
    const row = await vi.waitFor(
      async () => {
        const r = await db.select().from(calls).where(eq(calls.channelId, call.channelId));
        if (r.length !== 1 || !r[0]!.endedAt) throw new Error('not finished yet');
        return r[0]!;
      },
      { timeout: 20_000 },
    );
    expect(outcome.heard[0]).toBe(await h.prompt("You've reached Backup Hour Ltd. For quality purposes, this call is being recorded. Please leave your name and message after the tone.", 'female'));
    expect(row).toMatchObject({ status: 'voicemail', recordingFile: `call-${row.id}.wav` });
    await vi.waitFor(() => expect(h.finished).toEqual([row.id]));
    expect(h.protocolProblems()).toEqual([]);
  });

  it('as a job completes (the text just handed to Twilio): no crash, the job is retried and finds the text, Twilio gets exactly one', async () => {
    const h: PipelineHarness = await startPipelineHarness({ start: false });
    cleanups.push(() => h.close());
    sqliteOf(h.server.database).pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    const holder = await startLockHolder(path.join(h.server.dataDir, 'appliance.db'));
    cleanups.push(() => holder.stop());
    // Twilio takes the text; the backup grabs the database before the send is recorded.
    const twilio = gatewayFromConfig(h.server.services);
    let locked = false;
    const gateway: MessageGateway = {
      name: twilio.name,
      async send(msg, opts) {
        const sent = await twilio.send(msg, opts);
        if (!locked) {
          locked = true;
          await holder.lock();
        }
        return sent;
      },
      reconcile: (msg, since) => twilio.reconcile(msg, since),
    };
    const unhandled: unknown[] = [];
    const onUnhandled = (err: unknown) => unhandled.push(err);
    process.on('unhandledRejection', onUnhandled);
    cleanups.push(() => process.off('unhandledRejection', onUnhandled));

    const refusedBefore = busyRefusals(h.server.database.db);
    const id = await h.finishedCall({ status: 'missed' });
    h.restart({ gateway });
    h.fireCallFinished(id);
    await vi.waitFor(() => expect(locked).toBe(true), { timeout: 20_000 });
    // The outcome of the attempt could not be written: the worker waits the lock out.
    await vi.waitFor(() => expect(busyRefusals(h.server.database.db)).toBeGreaterThan(refusedBefore), { timeout: 20_000 });
    expect(h.twilio.messages).toHaveLength(1);
    await holder.unlock();

    await vi.waitFor(async () => expect((await h.jobOf(id)).status).toBe('done'), { timeout: 20_000 });
    expect(h.twilio.messages).toHaveLength(1);
    expect(h.twilio.messages[0]).toMatchObject({ to: OWNER_MOBILE });
    expect((await h.attempts(id)).filter((a) => a.status === 'sent')).toHaveLength(1);
    expect(await h.call(id)).toMatchObject({ notificationSent: true, status: 'missed' });
    expect((await h.call(id)).endedAt).not.toBeNull();
    expect(unhandled).toEqual([]);
  });
});
