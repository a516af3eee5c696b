// Issue 39, M3: whatever answers at ARI_URL before Asterisk's ARI does, the core (root/main.ts as
// a process) stays up, says in its log what is wrong, shows the PBX down on /healthz, and
// connects once a real Asterisk appears there. With ari-client, a 401 (a wrong ARI_PASSWORD) or
// a 404 (res_ari still loading) to its first request ended the process ("Can't read swagger JSON").
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../core/db/client.js';
import { calls, phoneNumbers, users } from '../helpers/tables.js';
import { startCoreProcess } from '../helpers/core-process.js';
import { adminHealth } from '../helpers/health.js';
import { waitUntil } from '../helpers/wait.js';
import { speech } from './audio.js';
import { findAsterisk } from './asterisk-install.js';
import { AsteriskInstance } from './asterisk-instance.js';
import { heardGreetingAndBeep, realPbxAvailability } from './harness.js';
import { freeTcpPort } from './ports.js';
import { placeCall } from './sipp.js';

const real = realPbxAvailability();

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const f of cleanups.splice(0).reverse()) await f();
});

/** Asterisk's HTTP server before ARI is usable: every request and every upgrade gets `status`. */
async function notReadyAri(port: number, app: string) {
  let status = 401;
  // The call-answering app's attempts only (the agent's media app has a socket of its own).
  let upgrades = 0;
  const answer = (status: number) =>
    `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\n${status === 401 ? 'WWW-Authenticate: Basic realm="Asterisk REST Interface"\r\n' : ''}Content-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`;
  const server = http.createServer((_req, res) => res.writeHead(status, { 'content-type': 'application/json' }).end('{}'));
  server.on('upgrade', (req, socket: net.Socket) => {
    if (new URL(req.url ?? '/', 'http://x').searchParams.get('app') === app) upgrades += 1;
    socket.end(answer(status));
  });
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  return {
    upgrades: () => upgrades,
    answerWith: (s: number) => void (status = s),
    close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
}

describe.skipIf(!real.ok)('the core before Asterisk’s ARI answers (issue 39, M3)', { timeout: 300_000 }, () => {
  it('a 401 and then a 404 at ARI_URL: the core stays up, logs why once each, reports the PBX down, and answers calls once Asterisk appears', async () => {
    const port = await freeTcpPort();
    const password = crypto.randomBytes(12).toString('hex');
    const fake = await notReadyAri(port, 'call-answering');
    cleanups.push(() => fake.close());

    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'core-ari-not-ready-'));
    cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    const db = openDatabase(path.join(dataDir, 'appliance.db'));
    cleanups.push(() => db.close());
    const did = '+447700900322';
    const owner = (await db.db.insert(users).values({ email: 'owner@example.co.uk', passwordHash: 'x', accountStatus: 'active', businessName: 'Mill Lane Bakery' }).returning())[0]!;
    await db.db.insert(phoneNumbers).values({ phoneNumber: did, provider: 'static', providerSid: did, userId: owner.id });

    const env = { ARI_URL: `http://127.0.0.1:${port}`, ARI_USERNAME: 'appliance', ARI_PASSWORD: password, ARI_APP: 'call-answering', LOG_LEVEL: 'info' };
    const core = await startCoreProcess(dataDir, env, { pbx: false });
    cleanups.push(() => core.child.kill('SIGKILL'));
    // The PBX's detail is an administrator's to read (signed out, /healthz says only ok or unavailable).
    const health = await adminHealth(`http://127.0.0.1:${core.port}`);
    const pbxHealth = async () => (await health()).components.pbx!;
    const alive = () => expect(core.child.exitCode).toBeNull();

    // A wrong password (or a user Asterisk does not know yet): retried, said once.
    await waitUntil(() => expect(fake.upgrades()).toBeGreaterThanOrEqual(3), 90_000, 100);
    alive();
    await waitUntil(() => expect(core.output()).toMatch(/ARI refused the credentials \(HTTP 401\)[^\n]*check ARI_PASSWORD/), 10_000, 100);
    expect((await pbxHealth()).ok).toBe(false);
    // One line from the call-answering app's link, one from the agent's media app: not one per attempt.
    expect(core.output().match(/ARI not connected: ARI refused the credentials/g)).toHaveLength(1);
    expect(core.output().match(/agent media app not registered: ARI refused the credentials/g)).toHaveLength(1);
    expect(core.output()).not.toContain(password);

    // res_ari not loaded yet.
    const before404 = fake.upgrades();
    fake.answerWith(404);
    await waitUntil(() => expect(core.output()).toMatch(/ARI answered HTTP 404[^\n]*ARI is not loaded yet/), 90_000, 100);
    // Two 404s at least, so that "once" means something; the core's back-off (ARI_RECONNECT) is capped at 10 s.
    await waitUntil(() => expect(fake.upgrades()).toBeGreaterThanOrEqual(before404 + 2), 90_000, 100);
    alive();
    expect(core.output().match(/ARI not connected: ARI answered HTTP 404/g)).toHaveLength(1);
    expect(await pbxHealth()).toMatchObject({ ok: false, detail: expect.stringMatching(/^down \(ARI answered HTTP 404/) });

    // Asterisk comes up on that port with that password.
    await fake.close();
    const found = findAsterisk();
    if (!found.ok) throw new Error(found.why);
    const asterisk = await AsteriskInstance.start({ root: found.root, httpPort: port, ariPassword: password });
    cleanups.push(() => asterisk.destroy());
    asterisk.mountPrompts(path.join(dataDir, 'prompts'));
    await waitUntil(async () => expect((await pbxHealth()).detail).toMatch(/^connected/), 90_000, 200);
    expect(core.output()).toMatch(/"first":true[^\n]*ARI connected/);

    const call = await placeCall(asterisk.sipPort, { did, from: '+447700900555' });
    cleanups.push(() => call.kill());
    await heardGreetingAndBeep(call);
    await call.media.say(speech('Hello, it is Sam. Please call me back about the order.'));
    expect((await call.done).exitCode).toBe(0);
    const row = await waitUntil(async () => {
      const r = (await db.db.select().from(calls).where(eq(calls.toNumber, did)))[0];
      if (!r?.endedAt) throw new Error('not final yet');
      return r;
    }, 60_000, 100);
    expect(row).toMatchObject({ status: 'voicemail', recordingFile: `call-${row.id}.wav` });
    alive();
  });
});
