// Agent mode under load on a real Asterisk: the engine doubles serve two conversations (Ollama
// two slots, Whisper one), three agent callers arrive together, and the one the engines have
// no room for hears that every assistant is busy and leaves a message that is stored, tagged
// and texted. The two admitted callers are greeted by the agent and keep their slots.
import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calls, notifications } from '../../core/db/schema.js';
import { AGENT_LINES, agentGreeting } from '../../dialogue/spoken/agent-lines.js';
import { GPU_BATCH_PENALTY } from '../doubles/engine-load.js';
import { waitUntil } from '../helpers/wait.js';
import { envelopeMatch, readWavSamples, speech } from './audio.js';
import { hearsAgent, hearsAudio } from './agent-caller.js';
import { heardGreetingAndBeep, realPbxAvailability, startRealPbx, type RealPbx } from './harness.js';

const real = realPbxAvailability();
const SLOTS = 2;
const EXTRA = 1;

describe.skipIf(!real.ok)('agent mode at capacity on a real Asterisk', { timeout: 240_000 }, () => {
  let h: RealPbx;
  beforeAll(async () => {
    h = await startRealPbx({ agent: true, pipeline: true, env: { OLLAMA_SLOTS: String(SLOTS), WHISPER_SLOTS: '1' } });
    // Scaled down from the figures in test/doubles/engine-load.ts so the test stays quick.
    h.ollama.load = { slots: SLOTS, serviceMs: 150, batchPenalty: GPU_BATCH_PENALTY };
    h.whisper.load = { slots: 1, serviceMs: 50, batchPenalty: 0 };
    h.ollama.replier = () => 'Sam called about a leaking boiler and asked for a call back this afternoon.';
  });
  afterAll(async () => {
    await h?.close();
  });

  it(`${SLOTS + EXTRA} callers at once: ${SLOTS} talk to the agent, ${EXTRA} hears the busy line and leaves a message that is stored, tagged and texted`, async () => {
    const owners = await Promise.all(Array.from({ length: SLOTS + EXTRA }, (_, i) => h.business({ businessName: `Hale Plumbing ${i + 1}`, aiMode: 'agent', notificationNumber: '+447700900123' })));
    const batch = await h.calls(owners.map(({ did }) => ({ did })));
    const rowOf = async (did: string) => (await h.server.database.db.select().from(calls).where(eq(calls.toNumber, did)).limit(1))[0];

    // Admission is decided at answer time: the rows say which caller was turned away.
    const turnedAway = await waitUntil(async () => {
      const busy = [];
      for (const o of owners) if ((await rowOf(o.did))?.agentBusy) busy.push(o);
      const logged = h.coreLog.filter((l) => l.msg === 'agent: the engines are full; taking a voicemail instead').length;
      if (logged < EXTRA) throw new Error(`${logged} callers turned away so far`);
      return busy;
    }, 60_000, 50);
    expect(turnedAway).toHaveLength(EXTRA);
    const busyIndex = owners.indexOf(turnedAway[0]!);
    const admitted = batch.calls.filter((_, i) => i !== busyIndex);
    const busyCall = batch.calls[busyIndex]!;

    // The caller turned away hears the busy line in place of a greeting, the tone, and leaves a
    // message (at once: the recording stops after 5 s of silence).
    await heardGreetingAndBeep(busyCall);
    await hearsAudio(h, busyCall.media, 0, [readWavSamples(await h.promptFile(AGENT_LINES.allBusy))], 'the busy line');
    // Three calls at once on a shared box can leave a gap before the tone: speak once Asterisk records.
    const busyId = (await rowOf(turnedAway[0]!.did))!.id;
    await waitUntil(() => expect(fs.existsSync(path.join(h.asterisk.recordingsDir, `call-${busyId}.wav`))).toBe(true), 60_000, 50);
    const words = speech('Hello, this is Sam. My boiler is leaking, please call me back this afternoon.');
    await busyCall.media.say(words);
    const busyRow = await h.finishedRow(turnedAway[0]!.did, 60_000);
    expect(busyRow).toMatchObject({ agentBusy: true, mode: 'agent', status: 'voicemail', recordingFile: `call-${busyRow.id}.wav` });
    expect(envelopeMatch(words, readWavSamples(path.join(h.server.dataDir, 'recordings', busyRow.recordingFile!))).score).toBeGreaterThan(0.8);

    // The admitted callers heard the agent's greeting: their conversations are under way.
    await Promise.all(batch.calls.map((call, i) => (i === busyIndex ? undefined : hearsAgent(h, call, 0, agentGreeting(`Hale Plumbing ${i + 1}`)))));

    // Every admitted caller kept their slot: no conversation was refused or cut short meanwhile.
    for (const { did } of owners.filter((_, i) => i !== busyIndex)) expect(await rowOf(did)).toMatchObject({ agentBusy: false, endedAt: null });
    expect(h.server.services.agentEngines.pools.llm.stats()).toMatchObject({ conversations: SLOTS, refusals: EXTRA });

    // Once the conversations end, the summary (which waited: live calls first) is texted to the owner.
    await Promise.all(admitted.map((call) => call.hangUp()));
    const texted = await waitUntil(async () => {
      const sent = await h.server.database.db.select().from(notifications).where(eq(notifications.callId, busyRow.id));
      if (!sent.some((n) => n.status === 'sent')) throw new Error('no text sent yet');
      return sent;
    }, 60_000, 100);
    expect(texted[0]).toMatchObject({ to: '+447700900123', kind: 'summary' });
    expect(texted[0]!.body).toContain('leaking boiler');
    await waitUntil(() => expect(h.server.services.agentEngines.pools.llm.stats().conversations).toBe(0), 30_000);
    batch.kill();
  });
});
