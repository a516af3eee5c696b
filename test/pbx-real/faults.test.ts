// Faults on a real Asterisk: Asterisk stopped or killed mid-call, the core stopped (SIGTERM
// drain) or killed mid-message, and 20 callers at once. No message is ever lost or
// overwritten, and no row is left open.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../core/db/client.js';
import { calls, phoneNumbers, users } from '../helpers/tables.js';
import { startCoreProcess, type CoreProcess } from '../helpers/core-process.js';
import { waitUntil } from '../helpers/wait.js';
import { envelopeMatch, readWavSamples, speech } from './audio.js';
import { findAsterisk } from './asterisk-install.js';
import { AsteriskInstance } from './asterisk-instance.js';
import { heardGreetingAndBeep, realPbxAvailability, startRealPbx, type RealPbx } from './harness.js';
import { placeCall, type SipCall } from './sipp.js';

const real = realPbxAvailability();
const MESSAGE = 'Hello, this is Priya from the bakery on Mill Lane. Our fridge has stopped working and we need someone today please. My number is oh seven seven double oh nine hundred one two three.';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const f of cleanups.splice(0).reverse()) await f();
});

const storedMatch = (dataDir: string, file: string, words: Int16Array) =>
  envelopeMatch(words, readWavSamples(path.join(dataDir, 'recordings', file))).score;
/** A message cut short (Asterisk went down mid-sentence): what was kept is found in what was said. */
const keptPartOf = (dataDir: string, file: string, words: Int16Array) => {
  const kept = readWavSamples(path.join(dataDir, 'recordings', file));
  expect(kept.length / 8000).toBeGreaterThan(2);
  return envelopeMatch(kept, words).score;
};

/** Resolves once the caller has been talking for more than `ms`, with how long they have. */
const talkingFor = (call: SipCall, ms: number) =>
  waitUntil(() => {
    const since = call.media.spokeAt[0];
    const talked = since === undefined ? 0 : performance.now() - since;
    return talked > ms ? talked : Promise.reject(new Error('still waiting for the caller to talk that long'));
  }, 30_000, 20);

describe.skipIf(!real.ok)('Asterisk stopped or killed mid-call', { timeout: 180_000 }, () => {
  let h: RealPbx;
  afterEach(async () => {
    await h?.close();
  });

  it('Asterisk stopped (SIGTERM) mid-message: the caller is hung up, and after its restart the partial message is stored', async () => {
    h = await startRealPbx();
    const { did } = await h.business({ businessName: 'Mill Lane Bakery' });
    const call = await h.call(did);
    await heardGreetingAndBeep(call);
    const words = speech(MESSAGE);
    void call.media.say(words);
    await waitUntil(() => expect(call.media.packetsOut).toBeGreaterThan(0), 5000);
    const spokenBeforeStop = await talkingFor(call, 4000);
    await h.asterisk.stop('SIGTERM');
    expect((await call.done).exitCode).toBe(0); // Asterisk said BYE on its way down
    await h.asterisk.restart();
    const row = await h.finishedRow(did, 60_000);
    expect(row).toMatchObject({ status: 'voicemail', recordingFile: `call-${row.id}.wav` });
    expect(spokenBeforeStop).toBeGreaterThan(4000);
    expect(keptPartOf(h.server.dataDir, row.recordingFile!, words)).toBeGreaterThan(0.8);
  });

  it('Asterisk killed (SIGKILL) mid-message: after its restart the message is stored with a mended WAV header', async () => {
    h = await startRealPbx();
    const { did } = await h.business({ businessName: 'Mill Lane Bakery' });
    const call = await h.call(did);
    await heardGreetingAndBeep(call);
    const words = speech(MESSAGE);
    void call.media.say(words);
    const spoken = await talkingFor(call, 5000);
    await h.asterisk.stop('SIGKILL');
    call.kill(); // nobody is left to say BYE to: the caller gives up
    const row0 = (await h.rows(did))[0]!;
    const spooled = path.join(h.asterisk.recordingsDir, `call-${row0.id}.wav`);
    expect(fs.readFileSync(spooled).readUInt32LE(40)).toBe(0); // what Asterisk left: a zero data size
    await h.asterisk.restart();
    const row = await h.finishedRow(did, 60_000);
    expect(row).toMatchObject({ status: 'voicemail', recordingFile: `call-${row.id}.wav` });
    const file = fs.readFileSync(path.join(h.server.dataDir, 'recordings', row.recordingFile!));
    expect(file.readUInt32LE(40)).toBe(file.length - 44);
    expect(spoken).toBeGreaterThan(5000);
    expect(keptPartOf(h.server.dataDir, row.recordingFile!, words)).toBeGreaterThan(0.8);
  });
});

describe.skipIf(!real.ok)('the core stopped or killed mid-call (root/main.ts as a process)', { timeout: 180_000 }, () => {
  async function setUp(): Promise<{ asterisk: AsteriskInstance; dataDir: string; db: DatabaseHandle; did: string; env: Record<string, string> }> {
    const found = findAsterisk();
    if (!found.ok) throw new Error(found.why);
    const asterisk = await AsteriskInstance.start({ root: found.root });
    cleanups.push(() => asterisk.destroy());
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'core-fault-'));
    cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    asterisk.mountPrompts(path.join(dataDir, 'prompts'));
    const db = openDatabase(path.join(dataDir, 'appliance.db'));
    cleanups.push(() => db.close());
    const did = '+447700900321';
    const owner = (await db.db.insert(users).values({ email: 'owner@example.co.uk', passwordHash: 'x', accountStatus: 'active', businessName: 'Mill Lane Bakery' }).returning())[0]!;
    await db.db.insert(phoneNumbers).values({ phoneNumber: did, provider: 'static', providerSid: did, userId: owner.id });
    const env = { ARI_URL: asterisk.ari.url, ARI_USERNAME: asterisk.ari.username, ARI_PASSWORD: asterisk.ari.password, ARI_APP: asterisk.ari.app, LOG_LEVEL: 'info' };
    return { asterisk, dataDir, db, did, env };
  }

  const finalRow = (db: DatabaseHandle, did: string) =>
    waitUntil(async () => {
      const r = (await db.db.select().from(calls).where(eq(calls.toNumber, did)).limit(1))[0];
      if (!r?.endedAt) throw new Error('not final yet');
      return r;
    }, 60_000, 100);

  it('killed (SIGKILL) mid-message: the restarted core lets the recording run on, thanks the caller, and keeps the whole message', async () => {
    const { asterisk, dataDir, db, did, env } = await setUp();
    let core: CoreProcess = await startCoreProcess(dataDir, env);
    cleanups.push(() => core.child.kill('SIGKILL'));
    const call = await placeCall(asterisk.sipPort, { did, from: '+447700900555' });
    cleanups.push(() => call.kill());
    await heardGreetingAndBeep(call);
    const words = speech(MESSAGE);
    const said = call.media.say(words);
    await talkingFor(call, 2000);
    core.child.kill('SIGKILL');
    await core.exited;
    core = await startCoreProcess(dataDir, env); // takes the call over while the caller is still talking
    const greetingsHeard = call.media.soundMs();
    await said;
    expect((await call.done).exitCode).toBe(0); // silence stop, thank-you, hang-up: by the new core
    const row = await finalRow(db, did);
    if (process.env.TEST_DEBUG) console.log(core.output());
    expect(row).toMatchObject({ status: 'voicemail', recordingFile: `call-${row.id}.wav` });
    // The whole message, not a second recording that replaced it.
    expect(storedMatch(dataDir, row.recordingFile!, words)).toBeGreaterThan(0.8);
    expect(readWavSamples(path.join(dataDir, 'recordings', row.recordingFile!)).length / 8000).toBeGreaterThan(words.length / 8000 - 1);
    // No second greeting: after the take-over the caller heard only the thank-you (a few seconds).
    expect(call.media.soundMs() - greetingsHeard).toBeLessThan(6000);
    expect(await db.db.select().from(calls)).toHaveLength(1);
    expect(core.output()).toContain('taking over a call mid-message');
  });

  it('stopped (SIGTERM): the call in progress finishes normally, a new caller is turned away, and the core exits', async () => {
    const { asterisk, dataDir, db, did, env } = await setUp();
    const core = await startCoreProcess(dataDir, env);
    cleanups.push(() => core.child.kill('SIGKILL'));
    const call = await placeCall(asterisk.sipPort, { did, from: '+447700900555' });
    cleanups.push(() => call.kill());
    await heardGreetingAndBeep(call);
    core.child.kill('SIGTERM');
    const words = speech('Please call me back about the cake order for Saturday.');
    await call.media.say(words);
    // Drain: a caller arriving now is refused at once rather than left ringing.
    const late = await placeCall(asterisk.sipPort, { did, from: '+447700900556' });
    cleanups.push(() => late.kill());
    expect((await call.done).exitCode).toBe(0);
    const row = await finalRow(db, did);
    expect(row).toMatchObject({ status: 'voicemail', recordingFile: `call-${row.id}.wav` });
    expect(storedMatch(dataDir, row.recordingFile!, words)).toBeGreaterThan(0.8);
    expect(await core.exited).toBe(0);
    // The operator's log is the core's structured log only: ari-client's swagger-client (before
    // the core's own events socket) printed "This API is using a deprecated version of Swagger!" on every connect.
    expect(core.output()).not.toContain('deprecated version of Swagger');
    await late.done;
    expect(late.media.soundMs()).toBeLessThan(7000); // no greeting; at most the "try again later" fallback
    expect(await db.db.select().from(calls)).toHaveLength(1);
  });
});

describe.skipIf(!real.ok)('20 callers at once on a real Asterisk', { timeout: 240_000 }, () => {
  let h: RealPbx;
  afterEach(async () => {
    await h?.close();
  });

  it('every caller’s message is stored as theirs, every row is final', async () => {
    h = await startRealPbx();
    const businesses = await Promise.all(Array.from({ length: 20 }, (_, i) => h.business({ businessName: `Firm ${i}` })));
    const batch = await h.calls(businesses.map((b, i) => ({ did: b.did, from: `+4477009006${String(i).padStart(2, '0')}` })));
    const messages = businesses.map((_, i) => speech(`This is caller number ${i + 1}. Please ring me back about job ${i + 1}.`));
    await Promise.all(
      batch.calls.map(async (c, i) => {
        await heardGreetingAndBeep(c, 700, 120_000);
        await c.media.say(messages[i]!);
      }),
    );
    const result = await batch.done;
    expect(result.exitCode).toBe(0);
    for (const [i, b] of businesses.entries()) {
      const row = await h.finishedRow(b.did, 60_000);
      expect(row).toMatchObject({ status: 'voicemail', fromNumber: `+4477009006${String(i).padStart(2, '0')}` });
      expect(storedMatch(h.server.dataDir, row.recordingFile!, messages[i]!)).toBeGreaterThan(0.8);
    }
  });
});
