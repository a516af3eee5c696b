// The AI agent's call handling on a real Asterisk 20.17.0: a caller who asks for a person is
// put through to the owner's phone (SIPp) from the agent's own bridge, whose recording carries
// on across the transfer; an urgent caller the owner cannot take is offered a message and the
// call is flagged urgent; and at a trade that handles gas, a caller who mentions a gas smell
// hears the gas emergency advice before anything else. Whisper and Ollama are doubles.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultCallHandling, saveCallHandling } from '../../core/call-handling/index.js';
import { AGENT_LINES } from '../../dialogue/spoken/agent-lines.js';
import { GAS_SAFETY_LINES } from '../../dialogue/spoken/safety-line.js';
import { CANNOT_TAKE_CALL_NOW } from '../../dialogue/spoken/transfer.js';
import { briefingText } from '../../dialogue/spoken/transfer.js';
import { waitUntil } from '../helpers/wait.js';
import { askAgent, hearsAgent, hearsAudio } from './agent-caller.js';
import { envelopeMatch, readWavSamples, speech } from './audio.js';
import { ANSWERS_ONLY, CALLER, realPbxAvailability, startRealPbx, type RealPbx } from './harness.js';
import type { OwnerBehaviour } from './owner-phone.js';
import type { SipCall } from './sipp.js';

const real = realPbxAvailability();
const KB = 'Q: What are your opening hours?\nA: Eight till six, Monday to Friday.';
const reply = (intent: string, answered: boolean, answer: string) => JSON.stringify({ intent, answered, answer });
const FIX_IT = 'An engineer can come out today.';

describe.skipIf(!real.ok)('the AI agent’s call handling on a real Asterisk', { timeout: 180_000 }, () => {
  let h: RealPbx;
  beforeAll(async () => {
    h = await startRealPbx({ agent: true, ownerPhone: true, env: ANSWERS_ONLY, pbx: { transferTiming: { keyWaitMs: 1500, lastKeyWaitMs: 1500 } } });
    h.ollama.replier = (req) => {
      const last = (req.body.messages as Array<{ content: string }>).at(-1)?.content ?? '';
      if (/speak to a person/i.test(last)) return reply('human', false, '');
      if (/urgent/i.test(last)) return reply('urgent', false, '');
      if (/smell gas/i.test(last)) return reply('question', true, FIX_IT);
      return reply('question', false, '');
    };
  });
  afterAll(async () => {
    await h?.close();
  });

  /** The greeting has played (its words are agent.test.ts's to check): sound, then quiet. */
  const greeted = (call: SipCall) =>
    waitUntil(() => (call.media.soundMs() > 1500 ? call.media.silenceStartedAfter(0, 700) : undefined) ?? Promise.reject(new Error('greeting not over')), 60_000, 20);

  async function agentBusiness(behaviour: OwnerBehaviour | null, industry = 'plumbing') {
    const b = await h.business({ businessName: 'Hale Plumbing', aiMode: 'agent', knowledgeBase: KB, industry });
    const to = behaviour ? h.ownerPhone!.number(behaviour) : null;
    await saveCallHandling(h.server.database.db, b.userId, { ...defaultCallHandling(), transferNumber: to }, new Date());
    return { ...b, to };
  }

  it('“Can I speak to a person?”: the owner is briefed with the caller’s words, presses 1, and the recording carries on across the transfer', async () => {
    const { did, to } = await agentBusiness('answers');
    const call = await h.call(did);
    await greeted(call);
    const asked = 'Can I speak to a person please?';
    await askAgent(h, call, asked);
    const owner = await h.ownerPhone!.nextCall(to!);
    await waitUntil(() => expect(owner.media.silenceStartedAfter(0, 700)).toBeDefined(), 30_000, 20);
    const briefing = readWavSamples(await h.promptFile(briefingText({ businessName: 'Hale Plumbing', callerNumber: CALLER, callerWords: asked })));
    expect(envelopeMatch(briefing, owner.media.heard()).score).toBeGreaterThan(0.8);
    await owner.media.digits('1');

    const ownerWords = speech('Hello, this is Dave at Hale Plumbing. What can I do for you?');
    await waitUntil(() => expect(h.coreLog.some((l) => l.msg === 'transfer: caller put through to the owner')).toBe(true), 20_000);
    const spokeAt = performance.now();
    await owner.media.say(ownerWords);
    await hearsAudio(h, call.media, spokeAt, [ownerWords], 'the owner', 20_000);
    await owner.hangUp();
    expect((await call.done).exitCode).toBe(0);

    const row = await h.finishedRow(did);
    expect(row).toMatchObject({ status: 'answered', mode: 'agent', transferOutcome: 'connected', recordingFile: `call-${row.id}.wav` });
    // The agent's bridge recording has the owner's words too: it ran on across the transfer.
    const mix = readWavSamples(path.join(h.server.dataDir, 'recordings', row.recordingFile!));
    expect(envelopeMatch(ownerWords, mix).score).toBeGreaterThan(0.8);
  });

  it('“It’s urgent” and the owner is busy: the caller is told, offered a message, and the call is flagged urgent', async () => {
    const { did, to } = await agentBusiness('busy');
    const call = await h.call(did);
    await greeted(call);
    const asked = await askAgent(h, call, 'It is urgent, water is pouring through the ceiling.');
    await h.ownerPhone!.nextCall(to!);
    await hearsAgent(h, call, asked.endedAt, CANNOT_TAKE_CALL_NOW);
    await hearsAgent(h, call, asked.endedAt, AGENT_LINES.afterTransfer);
    await call.hangUp();
    expect((await call.done).exitCode).toBe(0);
    const row = await h.finishedRow(did);
    expect(row).toMatchObject({ transferOutcome: 'busy', urgency: 'urgent', urgencyReason: 'The caller said it was urgent.' });
  });

  it('a gas smell at a plumber: the gas emergency advice comes first, then the answer, and the call is urgent', async () => {
    const { did } = await agentBusiness(null, 'plumbing');
    const call = await h.call(did);
    await greeted(call);
    const asked = await askAgent(h, call, 'I can smell gas in the kitchen, can someone come?');
    await hearsAgent(h, call, asked.endedAt, GAS_SAFETY_LINES.join(' '));
    await hearsAgent(h, call, asked.endedAt, FIX_IT);
    await call.hangUp();
    expect((await call.done).exitCode).toBe(0);
    const row = await h.finishedRow(did);
    expect(row).toMatchObject({ urgency: 'urgent', urgencyReason: 'The caller mentioned a gas smell or leak.' });
    // Said in that order: the advice, then the answer.
    const said = row.transcription ?? '';
    expect(said.indexOf(GAS_SAFETY_LINES[0])).toBeGreaterThan(-1);
    expect(said.indexOf(GAS_SAFETY_LINES[0])).toBeLessThan(said.indexOf(FIX_IT));
  });

  it('the same words at a salon get the answer without the gas advice', async () => {
    const { did } = await agentBusiness(null, 'beauty');
    const call = await h.call(did);
    await greeted(call);
    const asked = await askAgent(h, call, 'I can smell gas in the kitchen, can someone come?');
    await hearsAgent(h, call, asked.endedAt, FIX_IT);
    await call.hangUp();
    expect((await call.done).exitCode).toBe(0);
    const row = await h.finishedRow(did);
    expect(row.urgency).not.toBe('urgent');
    expect(row.transcription).not.toContain('National Gas Emergency');
  });
});
