import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openDatabase } from '../../core/db/client.js';
import { calls, phoneNumbers, users } from '../helpers/tables.js';
import { callerSpeech } from '../ari-sim/caller-audio.js';
import { AriSimulator } from '../ari-sim/simulator.js';
import { adminHealth } from '../helpers/health.js';

const APP = 'call-answering';
const children: ChildProcess[] = [];
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
  for (const f of cleanups.splice(0)) await f();
});

describe('the core entry point with ARI_URL set', () => {
  it('connects as the Stasis app, reports the link in /healthz, answers a call, and on SIGTERM lets it finish before exiting', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'core-pbx-'));
    cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    // The business exists before the core starts (same database file, migrated here first).
    const seed = openDatabase(path.join(dataDir, 'appliance.db'));
    const user = (await seed.db.insert(users).values({ email: 'owner@example.co.uk', passwordHash: 'x', accountStatus: 'active', businessName: 'Entry Point Ltd' }).returning())[0]!;
    await seed.db.insert(phoneNumbers).values({ phoneNumber: '+447700900888', provider: 'static', providerSid: 'd1', userId: user.id });
    await seed.close();

    const sim = new AriSimulator({ timeScale: 10, soundDirs: { appliance: path.join(dataDir, 'prompts') } });
    await sim.start();
    cleanups.push(() => sim.stop());
    const child = spawn(process.execPath, ['--import', 'tsx', 'root/main.ts'], {
      cwd: path.resolve(import.meta.dirname, '../..'),
      env: {
        PATH: process.env.PATH,
        HOST: '127.0.0.1',
        PORT: '0',
        DATA_DIR: dataDir,
        ADMIN_EMAIL: 'admin@example.co.uk',
        ADMIN_PASSWORD: 'Admin-Password-1!',
        ARI_URL: sim.url,
        ARI_USERNAME: sim.credentials.username,
        ARI_PASSWORD: sim.credentials.password,
        ARI_APP: APP,
        TTS_ENGINE: 'espeak-ng',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let stdout = '';
    child.stdout!.on('data', (d) => (stdout += d));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const port = await vi.waitFor(
      () => {
        const m = stdout.match(/Server listening at http:\/\/127\.0\.0\.1:(\d+)/);
        if (!m) throw new Error('not listening yet');
        return Number(m[1]);
      },
      { timeout: 90_000, interval: 100 },
    );
    // The link's report is for an administrator; signed out /healthz says only ok.
    const health = await adminHealth(`http://127.0.0.1:${port}`);
    await vi.waitFor(async () => {
      expect((await health()).components.pbx).toMatchObject({ ok: true, detail: expect.stringMatching(/^connected/) });
    }, { timeout: 20_000, interval: 200 });

    const call = sim.call({
      app: APP,
      from: '+447700900999',
      did: '+447700900888',
      script: { onRecord: [{ say: callerSpeech('Hello, this is a message left while the core was being stopped.') }, { press: '#' }] },
    });
    await vi.waitFor(() => expect(sim.sentEvents.some((e) => e.type === 'RecordingStarted')).toBe(true), { timeout: 20_000 });
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect((await call.done).hungUpBy).toBe('app');

    const db = openDatabase(path.join(dataDir, 'appliance.db'));
    cleanups.push(() => db.close());
    const row = (await db.db.select().from(calls))[0]!;
    expect(row).toMatchObject({ channelId: call.channelId, status: 'voicemail', recordingFile: `call-${row.id}.wav` });
    expect(fs.existsSync(path.join(dataDir, 'recordings', row.recordingFile!))).toBe(true);
    expect(sim.violations).toEqual([]);
  }, 180_000);
});
