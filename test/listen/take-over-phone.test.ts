// Take over on the owner's phone (issue 54) on the real Asterisk 20.17.0: a SIPp caller talks
// with the agent; the owner asks for the call on their phone (the put-through number, a SIPp
// phone at the trunk's far end); the box dials it, the agent says its handover line and leaves,
// and the caller hears the owner; the owner hanging up ends the caller's call.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { defaultCallHandling, saveCallHandling } from '../../core/call-handling/index.js';
import { agentGreeting } from '../../dialogue/spoken/agent-lines.js';
import { fixedLines } from '../../dialogue/language/fixed-lines.js';
import { waitUntil } from '../helpers/wait.js';
import { hearsAgent, hearsAudio } from '../pbx-real/agent-caller.js';
import { RATE, readWavSamples, toneMs } from '../pbx-real/audio.js';
import { ANSWERS_ONLY, realPbxAvailability, startRealPbx, type RealPbx } from '../pbx-real/harness.js';
import { ownerWithLine } from '../call-my-line/owner-line.js';

const real = realPbxAvailability();
vi.setConfig({ testTimeout: 240_000 });

const OWNER_HZ = 1300;

describe.skipIf(!real.ok)('taking over an agent call on the owner’s phone, on the real PBX', () => {
  let h: RealPbx;
  beforeAll(async () => {
    h = await startRealPbx({ agent: true, ownerPhone: true, env: ANSWERS_ONLY });
    h.ollama.replier = () => JSON.stringify({ intent: 'question', answered: false, answer: '' });
  }, 240_000);
  afterAll(async () => {
    await h?.close();
  });

  it('dials the owner, the agent hands over, the caller hears the owner, and the row says phone', async () => {
    const owner = await ownerWithLine(h.server, '+447700900833', { businessName: 'Hale Plumbing' }, { aiMode: 'agent', knowledgeBase: 'Q: Do you cover York?\nA: Yes.' });
    const to = h.ownerPhone!.number('answers');
    await saveCallHandling(h.server.database.db, owner.user.id, { ...defaultCallHandling(), transferNumber: to }, new Date());
    const call = await h.call(owner.did);
    await hearsAgent(h, call, 0, agentGreeting('Hale Plumbing'));
    const row = (await h.rows(owner.did))[0]!;

    const pressedAt = performance.now();
    const res = await owner.client.post(`/api/live/calls/${row.id}/take-over`, { via: 'phone' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ via: 'phone', message: 'Calling your phone now: answer it to take the call.' });
    const phone = await h.ownerPhone!.nextCall(to, 60_000);

    const handover = fixedLines('en').handover('Hale Plumbing');
    await hearsAudio(h, call.media, pressedAt, [readWavSamples(await h.promptFile(handover))], `"${handover}"`);
    const tone = new Int16Array(4 * RATE).map((_, i) => Math.round(8000 * Math.sin((2 * Math.PI * OWNER_HZ * i) / RATE)));
    const saidAt = performance.now();
    await phone.media.say(tone);
    await waitUntil(() => expect(toneMs(call.media.heard(saidAt), OWNER_HZ)).toBeGreaterThan(1500), 60_000, 100);

    await phone.hangUp();
    expect((await call.done).exitCode).toBe(0);
    const ended = await h.finishedRow(owner.did, 90_000);
    expect(ended).toMatchObject({ status: 'answered', mode: 'agent', takenOverBy: 'the owner', takenOverVia: 'phone' });
    expect(ended.takenOverAt).toBeInstanceOf(Date);
    expect((ended.transcription ?? '').trimEnd().endsWith(handover)).toBe(true);
  });
});
