import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notificationBody } from '../../core/notify/message.js';
import { waitUntil } from '../helpers/wait.js';
import { speech } from '../pbx-real/audio.js';
import { heardGreetingAndBeep, realPbxAvailability } from '../pbx-real/harness.js';
import { placeCalls } from '../pbx-real/sipp.js';
import { startCluster, type Cluster } from './cluster.js';

// Issue 26: Kamailio's dispatcher in front of two Asterisk + core nodes on one PostgreSQL,
// every engine real (test/cluster/cluster.ts).

const real = realPbxAvailability();

describe.skipIf(!real.ok)('Kamailio in front of two nodes on one PostgreSQL', { timeout: 600_000 }, () => {
  let c: Cluster;
  beforeAll(async () => {
    c = await startCluster();
  }, 240_000);
  afterAll(async () => {
    await c?.close();
  });

  it('40 voicemail calls through Kamailio land on both nodes: each has exactly one row, one recording and one text', async () => {
    const businesses = await Promise.all([0, 1, 2, 3].map((i) => c.business({ businessName: `Firm ${i}` })));
    const specs = Array.from({ length: 40 }, (_, i) => ({ did: businesses[i % 4]!.did, from: `+4477009007${String(i).padStart(2, '0')}` }));
    const messages = specs.map((_, i) => speech(`This is caller ${i + 1}. Please ring me back about job ${i + 1}.`));
    const batch = await placeCalls(c.kamailio.port, specs, { ratePerSecond: 2 });
    await Promise.all(
      batch.calls.map(async (call, i) => {
        await heardGreetingAndBeep(call, 700, 240_000);
        await call.media.say(messages[i]!);
        await call.hangUp();
      }),
    );
    const result = await batch.done;
    expect(result.exitCode, result.errors).toBe(0);
    expect(result.signalling.every((s) => s.final === 200)).toBe(true);

    const rows = await waitUntil(async () => {
      const r = await c.rows();
      const waiting = r.filter((x) => !x.notificationSent).length;
      if (r.length < specs.length || waiting > 0) throw new Error(`${r.length} rows, ${waiting} not texted yet`);
      return r;
    }, 240_000, 500);

    // Exactly one row per call: 40 rows, one per caller, each to the DID that caller rang.
    expect(rows).toHaveLength(specs.length);
    expect(rows.map((r) => `${r.fromNumber} ${r.toNumber}`).sort()).toEqual(specs.map((s) => `${s.from} ${s.did}`).sort());
    for (const r of rows) {
      expect(r).toMatchObject({ status: 'voicemail', recordingFile: `call-${r.id}.wav` });
      expect(fs.statSync(path.join(c.recordingsDir, r.recordingFile!)).size).toBeGreaterThan(8000);
    }
    // Spread over both nodes (round robin), each node's calls under its own channel ids.
    const perNode = new Map<string, number>();
    for (const r of rows) perNode.set(r.node, (perNode.get(r.node) ?? 0) + 1);
    console.log(`calls per node: ${[...perNode].map(([n, k]) => `${n} ${k}`).join(', ')}`);
    expect([...perNode.keys()].sort()).toEqual(['node-a', 'node-b']);
    for (const r of rows) expect(r.channelId!.startsWith(`${r.node}-`)).toBe(true);
    // One text per call: the bodies Twilio took are exactly the bodies due, once each.
    expect(c.twilio.messages.map((m) => m.body).sort()).toEqual(rows.map((r) => notificationBody(r)).sort());

    // Any core serves any owner's recording (the shared recordings folder).
    for (const node of c.nodes) {
      const r = rows.find((x) => x.node !== node.name)!;
      const owner = businesses.find((b) => b.userId === r.userId)!;
      const res = await fetch(`http://127.0.0.1:${node.core.port}/api/call-logs/${r.id}/recording`, { headers: { cookie: owner.cookie } });
      expect(res.status).toBe(200);
      expect(Buffer.from(await res.arrayBuffer()).equals(fs.readFileSync(path.join(c.recordingsDir, r.recordingFile!)))).toBe(true);
    }
  });
});
