// Issue 30, "nothing accepted is lost": 20 voicemail callers on a real Asterisk while the node's
// storage is slow. Callers arrive two a second, so their calls end one after another. The
// recordings disk stalls (every write waits, as on a disk that takes its time) until the first
// ten finishers are all waiting on it; meanwhile the database is locked by another process (a
// backup, an operator's sqlite3 shell) until every finisher's row write has been refused. Once
// the slowness passes every message is stored, once, and texted to its owner, once. Nothing is
// timed: each stage waits for what shows the slowness was met; the first finisher meets each
// for as long as the callers behind it take to arrive there (about 5 s). Nothing in the core may
// sleep on its thread for the lock meanwhile: a minute's housekeeping that once did (5 s, the
// busy timeout) left callers who spoke after the beep unheard, their messages filed as silence.
import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { calls, jobs, notifications } from '../helpers/tables.js';
import { postCallKey } from '../../core/post-call/post-call.js';
import { localDisk, type RecordingDisk } from '../../pbx/recordings/disk.js';
import { startLockHolder, type LockHolder } from '../helpers/lock-holder.js';
import { waitUntil } from '../helpers/wait.js';
import { envelopeMatch, readWavSamples, speech } from './audio.js';
import { heardGreetingAndBeep, realPbxAvailability, startRealPbx, type RealPbx } from './harness.js';

const real = realPbxAvailability();
const CALLERS = 20;
const OWNER_MOBILE = '+447700900444';
const LOCKED = 'database locked by another process; retrying the write';

/** A recordings disk that holds every write until `release()`, then writes as the real one does. */
function stalledDisk(): RecordingDisk & { held: () => number; heldFiles: () => string[]; release: () => void } {
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  const files: string[] = [];
  return {
    held: () => files.length,
    heldFiles: () => [...files],
    release,
    async writeNewFile(file, data) {
      files.push(path.basename(file));
      await released;
      await localDisk.writeNewFile(file, data);
    },
  };
}

describe.skipIf(!real.ok)('the recordings disk and the database slow while 20 callers leave messages', { timeout: 300_000 }, () => {
  let h: RealPbx | undefined;
  let holder: LockHolder | undefined;
  afterEach(async () => {
    holder?.stop();
    await h?.close();
  });

  it('once the slowness passes every message is stored once and texted once', async () => {
    const disk = stalledDisk();
    h = await startRealPbx({ pipeline: true, pbx: { recordingDisk: disk } });
    const db = h.server.database.db;
    const firms = await Promise.all(Array.from({ length: CALLERS }, (_, i) => h!.business({ businessName: `Firm ${i + 1}`, smsEnabled: true, notificationNumber: OWNER_MOBILE })));
    const from = (i: number) => `+4477009008${String(i).padStart(2, '0')}`;
    const messages = firms.map((_, i) => speech(`This is caller number ${i + 1}. Please ring me back about job ${i + 1}.`));
    holder = await startLockHolder(path.join(h.server.dataDir, 'appliance.db'));

    const batch = await h.calls(firms.map((f, i) => ({ did: f.did, from: from(i) })), { ratePerSecond: 2 });
    // Each caller leaves their message after the beep; the box hangs up after each one.
    const spoken = Promise.all(batch.calls.map(async (c, i) => {
      await heardGreetingAndBeep(c, 700, 120_000);
      await c.media.say(messages[i]!);
    }));
    spoken.catch(() => undefined); // awaited below; a stage that fails first is the error to see
    // Every caller's row is open: the database is locked from here on.
    await waitUntil(async () => expect(await db.select().from(calls)).toHaveLength(CALLERS), 120_000, 100);
    await holder.lock();
    // The disk holds the first ten finishers' recordings until all ten wait on it…
    await waitUntil(() => expect(disk.held()).toBeGreaterThanOrEqual(CALLERS / 2), 120_000, 100);
    disk.release();
    // …and the lock holds every finisher's row write until each has been refused.
    const rows = await db.select().from(calls);
    const callStory = (id: number) => {
      const channel = rows.find((r) => r.id === id)?.channelId;
      return { call: id, log: h!.coreLog.filter((l) => l.callId === id || (channel && l.channelId === channel) || String(l.what ?? '').endsWith(` ${id}`)).map((l) => JSON.stringify(l)) };
    };
    const refused = () => new Set(h!.coreLog.filter((l) => l.msg === LOCKED).map((l) => String(l.what)));
    await waitUntil(() => expect(rows.filter((r) => !refused().has(`finish call ${r.id}`))).toEqual([]), 120_000, 100);
    await spoken;
    expect((await batch.done).exitCode).toBe(0);
    // Every finisher stored its message before it tried its row; one that did not says why.
    expect(rows.filter((r) => !disk.heldFiles().some((f) => f.startsWith(`.call-${r.id}.wav.`))).map((r) => callStory(r.id))).toEqual([]);
    expect(disk.held()).toBe(CALLERS);
    expect((await db.select().from(calls)).filter((r) => r.endedAt)).toEqual([]);
    await holder.unlock();

    // Every message stored once, as its caller said it, post-call work done, one text each.
    const settled = await waitUntil(async () => {
      const now = await db.select().from(calls);
      const done = new Set((await db.select().from(jobs)).filter((j) => j.status === 'done').map((j) => j.key));
      const open = now.filter((r) => !r.endedAt || !done.has(postCallKey(r.id)));
      if (open.length) throw new Error(`${open.length} calls not finished and texted yet`);
      return now;
    }, 120_000, 200);
    expect(settled).toHaveLength(CALLERS);
    for (const [i, f] of firms.entries()) {
      const row = settled.find((r) => r.toNumber === f.did)!;
      expect(row).toMatchObject({ status: 'voicemail', fromNumber: from(i), recordingFile: `call-${row.id}.wav` });
      // Their words (1.00 on a quiet machine; once 0.74 at load 4 with the start clipped: stored is what this test is about).
      expect(envelopeMatch(messages[i]!, readWavSamples(path.join(h.server.dataDir, 'recordings', row.recordingFile!))).score).toBeGreaterThan(0.6);
      const texts = await db.select().from(notifications).where(eq(notifications.callId, row.id));
      expect(texts.map((t) => [t.channel, t.kind, t.status, t.to])).toEqual([['sms', 'summary', 'sent', OWNER_MOBILE]]);
    }
    expect(fs.readdirSync(path.join(h.server.dataDir, 'recordings')).filter((f) => f.endsWith('.wav'))).toHaveLength(CALLERS);
    expect(fs.readdirSync(path.join(h.server.dataDir, 'outbox', 'sms'))).toHaveLength(CALLERS);
  });
});
