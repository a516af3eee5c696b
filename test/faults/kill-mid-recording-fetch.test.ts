// The core killed with SIGKILL while it is copying a finished call's recording from
// Asterisk, then started again on the same DATA_DIR (issue 8, fault tests). The real
// entry point (root/main.ts) runs as a child process against the ARI simulator; the
// simulator holds the stored-file fetch open so the kill lands mid-fetch, as it would
// with a slow Asterisk or a large file.
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import type http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openDatabase } from '../../core/db/client.js';
import { tablesOf } from '../../core/db/schema.js';
import { postCallKey } from '../../core/post-call/post-call.js';
import { callerSpeech } from '../ari-sim/caller-audio.js';
import { AriSimulator } from '../ari-sim/simulator.js';
import { startCoreProcess } from '../helpers/core-process.js';
import { useEngineDoubles } from '../helpers/engine-doubles.js';

const APP = 'call-answering';
const DID = '+447700900889';
const OWNER_MOBILE = '+447700900555';
const MESSAGE = 'Hello, it is Raj from flat two. The front door lock is jammed, please send someone round.';
const SUMMARY = 'Raj from flat two reports a jammed front door lock and asks for someone to come round.';

const engines = useEngineDoubles({ transcript: MESSAGE, summary: SUMMARY });
const children: ChildProcess[] = [];
const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
  for (const f of cleanups.splice(0).reverse()) await f();
});

/** Starts root/main.ts on `dataDir` and resolves once its PBX link is up; killed after the test. */
async function startCore(dataDir: string, env: Record<string, string>): Promise<ChildProcess> {
  const core = await startCoreProcess(dataDir, env);
  children.push(core.child);
  return core.child;
}

describe('the core killed with SIGKILL mid-recording-fetch', () => {
  it('after a restart on the same DATA_DIR the message is stored exactly once, the row is a final voicemail, one text', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kill-mid-fetch-'));
    cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    const seed = openDatabase(path.join(dataDir, 'appliance.db'));
    // The core runs on this DATA_DIR's SQLite file whatever the run's engine: its tables are SQLite's.
    const { calls, jobs, notifications, phoneNumbers, users } = tablesOf(seed.db);
    const owner = (await seed.db
      .insert(users)
      .values({ email: 'owner@example.co.uk', passwordHash: 'x', accountStatus: 'active', businessName: 'Locksmiths Ltd', smsEnabled: true, notificationNumber: OWNER_MOBILE })
      .returning())[0]!;
    await seed.db.insert(phoneNumbers).values({ phoneNumber: DID, provider: 'static', providerSid: 'd1', userId: owner.id });
    await seed.close();

    const sim = new AriSimulator({ timeScale: 10, soundDirs: { appliance: path.join(dataDir, 'prompts') } });
    await sim.start();
    cleanups.push(() => sim.stop());
    const env = {
      ARI_URL: sim.url,
      ARI_USERNAME: sim.credentials.username,
      ARI_PASSWORD: sim.credentials.password,
      ARI_APP: APP,
      ...engines.env(),
    };

    // Asterisk is slow to hand over the file: the fetch is in flight when the core dies.
    let fetches = 0;
    (sim as unknown as { server: http.Server }).server.on('request', (req: http.IncomingMessage) => {
      if (req.method === 'GET' && /^\/ari\/recordings\/stored\/[^/]+\/file/.test(req.url ?? '')) fetches++;
    });
    sim.delayOperation('recordings.getStoredFile', 8_000);
    const first = await startCore(dataDir, env);
    const call = sim.call({ app: APP, from: '+447700900999', did: DID, script: { onRecord: [{ say: callerSpeech(MESSAGE) }, { press: '#' }] } });
    const outcome = await call.done;
    // The caller heard the beep, left the message and was thanked and hung up on: no dead air.
    expect(outcome.hungUpBy).toBe('app');
    expect(outcome.heard).toContain('sound:beep');
    await vi.waitFor(() => expect(fetches).toBe(1), { timeout: 20_000 });

    const exited = new Promise((resolve) => first.once('exit', resolve));
    first.kill('SIGKILL');
    await exited;
    const db = openDatabase(path.join(dataDir, 'appliance.db'));
    cleanups.push(() => db.close());
    const [open] = await db.db.select().from(calls);
    expect(open).toMatchObject({ channelId: call.channelId, endedAt: null }); // the kill left the row open…
    expect(sim.storedRecordingNames()).toEqual([`call-${open!.id}`]); // …and the only copy on Asterisk

    sim.delayOperation('recordings.getStoredFile', 0); // Asterisk answers promptly again
    await startCore(dataDir, env);

    const row = await vi.waitFor(
      async () => {
        const r = (await db.db.select().from(calls).where(eq(calls.id, open!.id)).limit(1))[0]!;
        if (!r.endedAt) throw new Error('not finished yet');
        return r;
      },
      { timeout: 30_000, interval: 100 },
    );
    expect(row).toMatchObject({ status: 'voicemail', recordingFile: `call-${row.id}.wav` });
    // Its end was never seen (the first core died), but it lasted at least as long as the message.
    expect(row.duration).toBeGreaterThanOrEqual(3);
    // Stored exactly once: one file, no half-written leftovers, the copy on Asterisk removed.
    expect(fs.readdirSync(path.join(dataDir, 'recordings'))).toEqual([`call-${row.id}.wav`]);
    expect(fs.statSync(path.join(dataDir, 'recordings', row.recordingFile!)).size).toBeGreaterThan(44);
    await vi.waitFor(() => expect(sim.storedRecordingNames()).toEqual([]), { timeout: 10_000 });
    expect(fetches).toBe(2);

    await vi.waitFor(async () => expect((await db.db.select().from(jobs).where(eq(jobs.key, postCallKey(row.id))).limit(1))[0]?.status).toBe('done'), { timeout: 30_000, interval: 100 });
    expect((await db.db.select().from(calls).where(eq(calls.id, row.id)).limit(1))[0]).toMatchObject({ transcription: MESSAGE, aiSummary: SUMMARY, notificationSent: true });
    const texts = await db.db.select().from(notifications).where(eq(notifications.callId, row.id));
    expect(texts.map((t) => [t.channel, t.status, t.to])).toEqual([['sms', 'sent', OWNER_MOBILE]]);
    expect(fs.readdirSync(path.join(dataDir, 'outbox', 'sms'))).toHaveLength(1);
    expect(await db.db.select().from(calls)).toHaveLength(1);
    expect(sim.violations).toEqual([]);
    // The dead core's held fetch is answered (into a closed socket) before the simulator stops.
    await vi.waitFor(() => expect(sim.restLog.filter((r) => r.operation === 'recordings.getStoredFile')).toHaveLength(2), { timeout: 20_000, interval: 100 });
  }, 120_000);
});
