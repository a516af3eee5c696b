import fs from 'node:fs';
import path from 'node:path';
import { eq, inArray } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { calls } from '../helpers/tables.js';
import { callerSpeech } from '../ari-sim/caller-audio.js';
import type { CallerScript } from '../ari-sim/caller-script.js';
import { parseWav } from '../ari-sim/wav.js';
import { APP, startHarness, type Harness } from './harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('many callers at once, and a graceful stop', () => {
  it('20 simultaneous callers: every call gets exactly one final row and every message is stored', async () => {
    h = await startHarness({ timeScale: 10 });
    const businesses = await Promise.all(Array.from({ length: 5 }, (_, i) => h!.business({ businessName: `Business ${i + 1}`, voicePreference: i % 2 ? 'male' : 'female' })));
    const message = (i: number) => callerSpeech(`This is caller number ${i}. Please ring me back about my order number ${1000 + i}.`);
    const scripts: Array<{ script: CallerScript; expect: 'voicemail' | 'missed' }> = Array.from({ length: 20 }, (_, i) => {
      switch (i % 4) {
        case 0:
          return { script: { onRecord: [{ say: message(i) }, { hangup: true as const }] }, expect: 'voicemail' as const };
        case 1:
          return { script: { onRecord: [{ say: message(i) }, { press: '#' }] }, expect: 'voicemail' as const };
        case 2:
          return { script: { hangupAfterMs: 2000 + i * 50 }, expect: 'missed' as const };
        default:
          return { script: { onRecord: [] }, expect: 'missed' as const };
      }
    });
    const placed = scripts.map((s, i) => ({ ...s, call: h!.sim.call({ app: APP, from: `+4477009${String(10000 + i)}`, did: businesses[i % 5]!.did, script: s.script }) }));
    await Promise.all(placed.map((p) => p.call.done));

    const ids = placed.map((p) => p.call.channelId);
    const rows = await vi.waitFor(
      async () => {
        const all = await h!.server.database.db.select().from(calls).where(inArray(calls.channelId, ids));
        if (all.length !== 20 || all.some((r) => !r.endedAt)) throw new Error(`${all.filter((r) => r.endedAt).length}/20 finished`);
        return all;
      },
      { timeout: 30_000 },
    );
    for (const p of placed) {
      const row = rows.find((r) => r.channelId === p.call.channelId)!;
      expect(row.status, `caller ${p.call.channelId}`).toBe(p.expect);
      if (p.expect === 'voicemail') {
        const wav = parseWav(fs.readFileSync(path.join(h.recordingsDir, row.recordingFile!)));
        expect(wav.durationMs).toBeGreaterThan(2000);
      } else {
        expect(row.recordingFile).toBeNull();
      }
    }
    expect(new Set(h.finished)).toEqual(new Set(rows.map((r) => r.id)));
    expect(h.finished).toHaveLength(20);
    // Each finisher deletes Asterisk's copy just after announcing its call (pbx/finish-call.ts):
    // on a loaded run the last deletions are still on their way when the last row is final.
    await vi.waitFor(() => expect(h!.sim.storedRecordingNames()).toEqual([]), { timeout: 10_000 });
    expect(h.sim.liveChannelIds()).toEqual([]);
    expect(h.protocolProblems()).toEqual([]);
  });

  it('a graceful stop lets the call in progress finish with its message and turns a new caller away', async () => {
    h = await startHarness({ timeScale: 10 });
    const biz = await h.business({ businessName: 'Closing Time Ltd' });
    const first = h.sim.call({
      app: APP,
      from: '+447700900111',
      did: biz.did,
      script: { onRecord: [{ say: callerSpeech('I would like to book a table for four on Friday evening please.') }, { press: '#' }] },
    });
    await vi.waitFor(() => expect(h!.sim.sentEvents.some((e) => e.type === 'PlaybackStarted')).toBe(true));
    const stopping = h.pbx.stop(20_000);
    await vi.waitFor(() => expect(h!.pbx.app.activeCalls).toBe(1));
    const late = h.sim.call({ app: APP, from: '+447700900222', did: biz.did });
    const lateOutcome = await late.done;
    expect(lateOutcome.answered).toBe(false);
    expect(lateOutcome.hungUpBy).toBe('app');

    await stopping;
    const row = (await h.server.database.db.select().from(calls).where(eq(calls.channelId, first.channelId)).limit(1))[0];
    expect(row).toMatchObject({ status: 'voicemail' });
    expect((await first.done).hungUpBy).toBe('app');
    expect((await h.server.database.db.select().from(calls).where(eq(calls.channelId, late.channelId)).limit(1))[0]).toBeUndefined();
  });
});
