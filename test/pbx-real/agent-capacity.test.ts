// Agent mode at capacity on a real Asterisk (issue 27's "Proven by"): the engine doubles serve
// four conversations (four slots each, admission sized to them) and eight agent callers arrive
// together. Four talk to the agent: each hears the answer to its own question from its own
// business, or the holding phrase and then the answer, never the stall's voicemail offer. The
// other four hear that every assistant is busy and leave messages that are stored, tagged
// agentBusy and texted. How long each admitted caller waited in silence is printed (bench/
// pbx-real-agent-load.ts keeps the figures); it is never asserted.
import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calls } from '../helpers/tables.js';
import { AGENT_LINES, agentGreeting } from '../../dialogue/spoken/agent-lines.js';
import { GPU_BATCH_PENALTY } from '../doubles/engine-load.js';
import { knowledgeBaseReplier } from '../doubles/ollama/knowledge-base-replier.js';
import { waitUntil } from '../helpers/wait.js';
import { envelopeMatch, loudMs, readWavSamples, speech } from './audio.js';
import { hearsAgent, hearsAudio, sayAndMark } from './agent-caller.js';
import { heardGreetingAndBeep, realPbxAvailability, startRealPbx, textsSent, type RealPbx } from './harness.js';
import type { SipCall } from './sipp.js';

const real = realPbxAvailability();
const SLOTS = 4;
const CALLERS = 8;
const QUESTION = 'What are your opening hours?';
/** Each business opens differently, so a caller who hears their answer heard their own conversation. */
const HOURS = [
  'We are open from eight in the morning to six in the evening, Monday to Friday.',
  'We open at seven and close at noon on weekdays.',
  'Our office is open every day from nine until five.',
  'We answer calls around the clock, every day of the year.',
  'We are open on Saturdays only, from ten until four.',
  'Our doors open at half past eight and close at half past five.',
  'We work evenings, from six until ten at night.',
  'We keep shop hours, nine to half past five, closed on Sundays.',
];
/** What Whisper makes of the question's first words alone. */
const FRAGMENT = 'What are your';
const MESSAGE = 'Hello, this is Sam. My boiler is leaking, please call me back this afternoon.';
const SUMMARY = 'Sam called about a leaking boiler and asked for a call back this afternoon.';
/** Quiet after the greeting before the caller speaks: under load a line arrives with gaps, and a caller who speaks into one barges in. */
const QUIET_MS = 1500;

describe.skipIf(!real.ok)('agent mode at capacity on a real Asterisk', { timeout: 300_000 }, () => {
  let h: RealPbx;
  beforeAll(async () => {
    h = await startRealPbx({
      agent: true,
      pipeline: true,
      // The holding phrase keeps its 1.2 s default; the offer comes later than its 8 s default
      // so a loaded test machine does not turn a slow answer into a stall.
      env: { OLLAMA_SLOTS: String(SLOTS), WHISPER_SLOTS: String(SLOTS), AGENT_VOICEMAIL_AFTER_MS: '20000' },
    });
    // Scaled down from the figures in test/doubles/engine-load.ts so the test stays quick.
    h.ollama.load = { slots: SLOTS, serviceMs: 150, batchPenalty: GPU_BATCH_PENALTY };
    h.whisper.load = { slots: SLOTS, serviceMs: 50, batchPenalty: GPU_BATCH_PENALTY };
    h.ollama.replier = knowledgeBaseReplier(SUMMARY);
    // Messages are long, questions short; a question that reached the agent in fragments (less of
    // it voiced than was spoken) transcribes as the fragment, as a real engine's would.
    const spoken = loudMs(speech(QUESTION));
    h.whisper.transcriptFor = (ms, voiced) => (ms > 3500 ? MESSAGE : voiced >= spoken * 0.8 ? QUESTION : FRAGMENT);
  });
  afterAll(async () => {
    await h?.close();
  });

  it(`${CALLERS} callers at once: ${SLOTS} talk to the agent and hear their answers, ${CALLERS - SLOTS} hear the busy line and leave messages that are stored, tagged and texted`, async () => {
    const names = HOURS.map((_, i) => `Hale Plumbing ${i + 1}`);
    const owners = await Promise.all(
      HOURS.map((hours, i) => h.business({ businessName: names[i], aiMode: 'agent', knowledgeBase: `Q: ${QUESTION}\nA: ${hours}`, notificationNumber: '+447700900123' })),
    );
    const batch = await h.calls(owners.map(({ did }) => ({ did })));
    const rowOf = async (did: string) => (await h.server.database.db.select().from(calls).where(eq(calls.toNumber, did)).limit(1))[0];

    // Admission is decided at answer time: the rows say which callers were turned away.
    const busy = await waitUntil(async () => {
      const rows = await Promise.all(owners.map((o) => rowOf(o.did)));
      if (rows.some((r) => !r)) throw new Error('not every call has a row yet');
      const turnedAway = rows.flatMap((r, i) => (r!.agentBusy ? [i] : []));
      if (turnedAway.length < CALLERS - SLOTS) throw new Error(`${turnedAway.length} callers turned away so far`);
      return turnedAway;
    }, 60_000, 50);
    expect(busy).toHaveLength(CALLERS - SLOTS);
    const admitted = owners.flatMap((_, i) => (busy.includes(i) ? [] : [i]));

    const question = speech(QUESTION);
    const talk = async (i: number) => {
      const call = batch.calls[i]!;
      await hearsAgent(h, call, 0, agentGreeting(names[i]), QUIET_MS);
      // Not askAgent: the Whisper double's words stay chosen by length (messages are being left meanwhile).
      const askedAt = await sayAndMark(call, question);
      await hearsAgent(h, call, askedAt, HOURS[i]!);
      return { call, askedAt };
    };
    const leaveMessage = async (i: number) => {
      const call = batch.calls[i]!;
      await heardGreetingAndBeep(call);
      await hearsAudio(h, call.media, 0, [readWavSamples(await h.promptFile(AGENT_LINES.allBusy))], 'the busy line');
      // Many calls at once on a shared box can leave a gap before the tone: speak once Asterisk records.
      const id = (await rowOf(owners[i]!.did))!.id;
      await waitUntil(() => expect(fs.existsSync(path.join(h.asterisk.recordingsDir, `call-${id}.wav`))).toBe(true), 60_000, 50);
      const words = speech(MESSAGE);
      await call.media.say(words);
      return words;
    };
    const [talked, messages] = await Promise.all([Promise.all(admitted.map(talk)), Promise.all(busy.map(leaveMessage))]);

    // Every admitted caller waited for their answer with something to hear: the answer, or the
    // holding phrase first when it was slow; none was offered voicemail for a stall.
    const holding = readWavSamples(await h.promptFile(AGENT_LINES.holding));
    const offer = readWavSamples(await h.promptFile(AGENT_LINES.engineFailure));
    const held = h.coreLog.filter((l) => l.msg === 'agent: the answer is slow; holding phrase').length;
    const heardHolding = talked.filter(({ call, askedAt }) => envelopeMatch(holding, call.media.heard(askedAt)).score >= 0.8).length;
    expect(heardHolding).toBe(held);
    for (const { call } of talked) expect(envelopeMatch(offer, call.media.heard(0)).score).toBeLessThan(0.8);
    expect(h.coreLog.filter((l) => l.msg === 'agent: the engines stalled on a turn; offering voicemail')).toEqual([]);
    console.log(`capacity on the real PBX: silence after the question, per admitted caller: ${talked.map(silenceAfter).join(', ')} ms; holding phrase heard by ${held}`);
    const starved = talked.map(({ call }) => call.media.lateTicks);

    // The conversations kept their slots while the others were turned away.
    expect(h.server.services.agentEngines.pools.llm.stats()).toMatchObject({ conversations: SLOTS, refusals: CALLERS - SLOTS });
    for (const i of admitted) expect(await rowOf(owners[i]!.did)).toMatchObject({ agentBusy: false, endedAt: null });

    // The busy callers' messages: stored (the recording holds the words), tagged and, once the
    // conversations end (the summaries wait: live calls first), texted.
    await Promise.all(talked.map(({ call }) => call.hangUp()));
    for (const [k, i] of busy.entries()) {
      const row = await h.finishedRow(owners[i]!.did, 60_000);
      expect(row).toMatchObject({ agentBusy: true, agentStalled: false, mode: 'agent', status: 'voicemail', recordingFile: `call-${row.id}.wav` });
      expect(envelopeMatch(messages[k]!, readWavSamples(path.join(h.server.dataDir, 'recordings', row.recordingFile!))).score).toBeGreaterThan(0.8);
      const texted = await textsSent(h, row.id);
      expect(texted[0]).toMatchObject({ to: '+447700900123', kind: 'summary' });
      expect(texted[0]!.body).toContain('leaking boiler');
    }
    // Each question reached the agent whole, as one turn (a question clipped on its way would
    // transcribe as a fragment); if not, say whether the test caller's own clock was starved.
    for (const [k, i] of admitted.entries()) {
      const row = await h.finishedRow(owners[i]!.did, 60_000);
      expect(row).toMatchObject({ status: 'answered', agentBusy: false, agentStalled: false });
      expect(row.transcription, `the caller's clock was starved ${starved[k]} times`).toContain(`Caller: ${QUESTION}\nAgent: ${HOURS[i]}`);
    }
    await waitUntil(() => expect(h.server.services.agentEngines.pools.llm.stats().conversations).toBe(0), 30_000);
    batch.kill();
  });
});

/** Milliseconds from the end of the caller's question to the first agent audio they heard. */
function silenceAfter({ call, askedAt }: { call: SipCall; askedAt: number }): string {
  const first = call.media.firstSoundAfter(askedAt);
  return first === undefined ? '?' : (first - askedAt).toFixed(0);
}
