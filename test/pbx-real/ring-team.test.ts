// "Ring the team first" (issue 58) on a real Asterisk 20.17.0: a caller (SIPp) to an agent-mode
// business whose team settings ring every working member with a confirmed phone before the
// agent answers. The staff phones are numbers on the SIPp owner phone (the trunk's far end):
// one rings until CANCELled, one answers. The first to answer gets the caller, the other
// phone is CANCELled, the agent never speaks; nobody answering hands the caller straight to the
// agent's greeting (how soon: bench/ring-team.ts, against the holding phrase's bound).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { PromptCache } from '../../models/tts/index.js';
import { agentGreeting } from '../../dialogue/spoken/agent-lines.js';
import { outboundCalls } from '../helpers/tables.js';
import { waitUntil } from '../helpers/wait.js';
import { envelopeMatch, isRingback, readWavSamples, speech } from './audio.js';
import { ANSWERS_ONLY, heardBeep, realPbxAvailability, startRealPbx, type RealPbx } from './harness.js';
import { defaultCallHandling, saveCallHandling } from '../../core/call-handling/index.js';
import { saidAndHeard, teamBusiness } from './staff-phones.js';

const real = realPbxAvailability();
const KB = 'Q: What are your opening hours?\nA: Eight till six, Monday to Friday.';

describe.skipIf(!real.ok)('ringing the team before the agent answers, on a real Asterisk', () => {
  let h: RealPbx;
  /** Every line the core asked its speech engine for, agent and PBX alike. */
  const spoken: string[] = [];
  beforeAll(async () => {
    let inner: PromptCache | undefined;
    const counting: PromptCache = {
      get: (text, ...rest) => (spoken.push(text), inner!.get(text, ...rest)),
      voiceName: (...a) => inner!.voiceName?.(...a),
      voices: (...a) => inner!.voices?.(...a) ?? [],
    };
    h = await startRealPbx({
      agent: true,
      ownerPhone: true,
      env: ANSWERS_ONLY,
      pbx: { prompts: counting },
      services: (s) => {
        inner = s.agentEngines.speech;
        s.agentEngines = { ...s.agentEngines, speech: counting };
      },
    });
    h.ollama.replier = () => JSON.stringify({ intent: 'question', answered: true, answer: 'We are open eight till six.' });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('rings both staff phones at once; Tom answers and gets the caller, Sarah’s phone is CANCELled, the agent never speaks, the row says Tom answered', async () => {
    const { did, userId, staff } = await teamBusiness(h, { aiMode: 'agent', knowledgeBase: KB, ringFirst: 'all', ringSeconds: 60, staff: [{ name: 'Sarah', phone: 'rings' }, { name: 'Tom', phone: 'answers' }] });
    const [sarah, tom] = staff;
    spoken.length = 0;
    const call = await h.call(did);
    await h.ownerPhone!.nextCall(sarah!.phone);
    const tomsPhone = await h.ownerPhone!.nextCall(tom!.phone);
    // Sarah's phone stops ringing the moment Tom has the call, long before its 60 s ring time.
    await waitUntil(() => expect(h.ownerPhone!.wasCancelled(sarah!.phone)).toBe(true), 20_000, 50);

    // Tom and the caller hear each other.
    await saidAndHeard(tomsPhone.media, call.media, 'Hello, Hale Plumbing, Tom speaking.');
    await saidAndHeard(call.media, tomsPhone.media, 'My boiler is leaking all over the kitchen floor.');

    await tomsPhone.hangUp();
    expect((await call.done).exitCode).toBe(0);
    const row = await h.finishedRow(did);
    expect(row).toMatchObject({ status: 'answered', transferOutcome: 'connected', staffId: tom!.id, routingNote: 'Answered by Tom', recordingFile: null });
    expect(spoken).toEqual([]);
    expect(h.ollama.requests.length).toBe(0);
    // Each phone rung was a call placed under the outbound rules, counted to the business's day.
    await waitUntil(async () => expect(await h.server.database.db.select().from(outboundCalls).where(eq(outboundCalls.userId, userId))).toHaveLength(2), 15_000);
  }, 120_000);

  it('“in order”: Sarah’s phone rings alone for her share of the ring time, then Tom’s, and Tom gets the caller', async () => {
    const { did, staff } = await teamBusiness(h, { aiMode: 'agent', knowledgeBase: KB, ringFirst: 'in-order', ringSeconds: 10, staff: [{ name: 'Sarah', phone: 'rings' }, { name: 'Tom', phone: 'answers' }] });
    const [sarah, tom] = staff;
    spoken.length = 0;
    const call = await h.call(did);
    await h.ownerPhone!.nextCall(sarah!.phone);
    const tomsPhone = await h.ownerPhone!.nextCall(tom!.phone);
    // Tom's phone was rung only once Sarah's had stopped.
    expect(tomsPhone.invitedAt).toBeGreaterThan(h.ownerPhone!.cancelledAt(sarah!.phone) ?? Infinity);
    await saidAndHeard(tomsPhone.media, call.media, 'Hello, Tom speaking.');
    await tomsPhone.hangUp();
    expect((await call.done).exitCode).toBe(0);
    expect(await h.finishedRow(did)).toMatchObject({ status: 'answered', transferOutcome: 'connected', staffId: tom!.id, routingNote: 'Answered by Tom' });
    expect(spoken).toEqual([]);
  }, 120_000);

  it('a caller who hangs up while the team’s phones ring stops them all; the call is missed, not lost', async () => {
    const { did, staff } = await teamBusiness(h, { aiMode: 'agent', knowledgeBase: KB, ringFirst: 'all', ringSeconds: 60, staff: [{ name: 'Sarah', phone: 'rings' }, { name: 'Tom', phone: 'rings' }] });
    const call = await h.call(did);
    for (const s of staff) await h.ownerPhone!.nextCall(s.phone);
    await call.hangUp();
    await call.done;
    for (const s of staff) await waitUntil(() => expect(h.ownerPhone!.wasCancelled(s.phone)).toBe(true), 20_000, 50);
    expect(await h.finishedRow(did)).toMatchObject({ status: 'missed', transferOutcome: 'no-answer', recordingFile: null });
    await waitUntil(async () => expect(await h.asterisk.ariGet<unknown[]>('/channels')).toEqual([]), 15_000);
  }, 120_000);

  it('a withheld caller the owner takes messages only from rings nobody: straight to voicemail', async () => {
    const { did, userId, staff } = await teamBusiness(h, { aiMode: 'agent', knowledgeBase: KB, ringFirst: 'all', ringSeconds: 60, staff: [{ name: 'Sarah', phone: 'answers' }, { name: 'Tom', phone: 'answers' }] });
    await saveCallHandling(h.server.database.db, userId, { ...defaultCallHandling(), withheld: 'message-only' }, new Date());
    const call = await h.call(did, 'anonymous');
    await heardBeep(call);
    await call.media.say(speech('Please call me back.'));
    expect((await call.done).exitCode).toBe(0);
    expect(await h.finishedRow(did)).toMatchObject({ status: 'voicemail', mode: 'voicemail', transferOutcome: null, staffId: null });
    for (const s of staff) expect(h.ownerPhone!.wasCalled(s.phone)).toBe(false);
  }, 120_000);

  it('nobody answers within the ring time: the caller hears ringback, then the agent’s greeting is the next thing they hear', async () => {
    const { did, staff } = await teamBusiness(h, { aiMode: 'agent', knowledgeBase: KB, ringFirst: 'all', ringSeconds: 10, staff: [{ name: 'Sarah', phone: 'rings' }, { name: 'Tom', phone: 'rings' }] });
    // The greeting is in the prompt cache, as the appliance makes it ahead for a business.
    await h.promptFile(agentGreeting('Hale Plumbing'));
    const call = await h.call(did);
    for (const s of staff) await h.ownerPhone!.nextCall(s.phone);
    const gaveUp = await waitUntil(async () => {
      const callId = (await h.rows(did))[0]?.id;
      const line = h.coreLog.find((l) => l.callId === callId && l.msg === 'ring-first: nobody in the team answered');
      if (!line) throw new Error('the team is still being rung');
      return (line.time as number) - performance.timeOrigin;
    }, 60_000, 50);
    const greetedAt = await waitUntil(() => call.media.heardFrames.find((f) => f.at >= gaveUp && f.level > 250 && !isRingback(f.samples))?.at ?? Promise.reject(new Error('no greeting yet')), 30_000, 20);
    // Ringing, not silence, while the phones rang: the UK ring tone's bursts, seconds of them.
    expect(call.media.heardFrames.filter((f) => f.at < gaveUp && isRingback(f.samples)).length * 20).toBeGreaterThan(2000);
    // The first thing heard after the ringing is the greeting itself (heard from its first sound
    // on: a holding phrase or apology before it would not match). How soon: bench/ring-team.ts.
    const greeting = readWavSamples(await h.promptFile(agentGreeting('Hale Plumbing')));
    await waitUntil(() => expect(envelopeMatch(greeting, call.media.heard(greetedAt)).score).toBeGreaterThan(0.8), 30_000, 100);
    for (const s of staff) expect(h.ownerPhone!.wasCancelled(s.phone)).toBe(true);
    await call.hangUp();
    await call.done;
    const row = await h.finishedRow(did);
    expect(row).toMatchObject({ status: 'answered', transferOutcome: 'no-answer', staffId: null, routingNote: 'Rang the team: nobody answered' });
  }, 120_000);
});
