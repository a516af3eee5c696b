// The agent's call-back placed by the PBX (issue 56; pbx/flows/call-back/), on a real Asterisk
// 20.17.0 with the SIPp phone (test/pbx-real/owner-phone.ts) as the called party's phone at the
// trunk's far end: who picks up is told by what the phone sends in the first seconds (espeak-ng's
// "Hello?" is a person, a 1.4 kHz beep a machine), what they hear is matched against the prompt
// the core makes for the line, the INVITE's From says the business's number, and the port's
// answer says how the try ended. Engine slots are the core's own pools (OLLAMA_SLOTS=3).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answeringMachineMessage } from '../../core/call-backs/texts.js';
import type { CallBackDial } from '../../core/ports/call-back-dialler.js';
import type { Services } from '../../core/services.js';
import { CALL_BACK_WRONG_NUMBER, callBackOpening } from '../../dialogue/spoken/call-back-lines.js';
import type { Admission } from '../../models/pool/engine-pool.js';
import { waitUntil } from '../helpers/wait.js';
import { hearsAgent } from './agent-caller.js';
import { shownTo, untilSpokenTo } from './called-party.js';
import { RATE, speech } from './audio.js';
import { realPbxAvailability, startRealPbx, type RealPbx } from './harness.js';

const real = realPbxAvailability();
const BUSINESS = 'Hale Plumbing';

/** `ms` of a steady 1.4 kHz tone: an answering machine's beep. */
function beep(ms: number): Int16Array {
  return Int16Array.from({ length: (ms * RATE) / 1000 }, (_, i) => Math.round(8000 * Math.sin((2 * Math.PI * 1400 * i) / RATE)));
}

describe.skipIf(!real.ok)('the PBX places a call-back through the trunk (issue 56), on a real Asterisk', () => {
  let h: RealPbx;
  let services!: Services;
  let seq = 0;
  beforeAll(async () => {
    h = await startRealPbx({
      ownerPhone: true,
      agent: true,
      env: { OLLAMA_SLOTS: '3', WHISPER_SLOTS: '1' },
      pbx: { callBackRingSeconds: 6 },
      services: (s) => (services = s),
    });
  });
  afterAll(async () => {
    await h?.close();
  });

  async function dialFor(to: string): Promise<{ dial: CallBackDial; did: string; userId: number }> {
    const { userId, did } = await h.business({ businessName: BUSINESS });
    return { did, userId, dial: { callBackId: ++seq, userId, to, from: did, businessName: BUSINESS, firstCallSummary: 'A leak under the kitchen sink; wants someone this week.', firstCallId: null } };
  }

  /** Who the box judged had picked up call-back `callBackId` (its log line). */
  const pickupOf = (callBackId: number) => h.coreLog.find((l) => l.msg === 'call-back: answered' && l.callBackId === callBackId)?.pickup;

  it('a person answers with "Hello?": they hear the opening with the disclosure, shown the business number; the try is answered with its own call row', async () => {
    const to = h.ownerPhone!.number('answers');
    const { dial, did, userId } = await dialFor(to);
    const dialler = h.pbx.callBackDialler!;
    const result = dialler(dial);
    const call = await h.ownerPhone!.nextCall(to);
    h.whisper.defaultTranscript = 'Hello?';
    const spoke = await untilSpokenTo(call, speech('Hello?'));
    await hearsAgent(h, call, spoke - 200, callBackOpening(BUSINESS));
    expect(pickupOf(dial.callBackId)).toEqual({ kind: 'person' });
    expect(await shownTo(h.ownerPhone!, to)).toEqual({ name: BUSINESS, number: did });
    await call.hangUp();
    const r = await result;
    expect(r).toEqual({ placed: true, outcome: 'answered', callId: expect.any(Number) });
    const row = await h.finishedRow(did, 60_000);
    expect(r.placed && r.callId).toBe(row.id);
    expect({ userId: row.userId, fromNumber: row.fromNumber, toNumber: row.toNumber, mode: row.mode, direction: row.direction, status: row.status }).toEqual({ userId, fromNumber: to, toNumber: did, mode: 'agent', direction: 'call-back', status: 'answered' });
  }, 180_000);

  it('a machine answers with a beep: it hears the short message naming the business and its number, and the box hangs up ("machine")', async () => {
    const to = h.ownerPhone!.number('answers');
    const { dial, did } = await dialFor(to);
    const result = h.pbx.callBackDialler!(dial);
    const call = await h.ownerPhone!.nextCall(to);
    const spoke = await untilSpokenTo(call, beep(600));
    await hearsAgent(h, call, spoke - 200, answeringMachineMessage(BUSINESS, did));
    expect(pickupOf(dial.callBackId)).toEqual({ kind: 'machine', why: 'beep' });
    const r = await result;
    expect(r).toEqual({ placed: true, outcome: 'machine', callId: expect.any(Number) });
    const row = await h.finishedRow(did, 60_000);
    expect({ fromNumber: row.fromNumber, mode: row.mode, direction: row.direction }).toEqual({ fromNumber: to, mode: 'agent', direction: 'call-back' });
  }, 180_000);

  it('a phone answered by something that says nothing for 5 s: a machine (silence); the message is left and the box hangs up', async () => {
    const to = h.ownerPhone!.number('answers');
    const { dial, did } = await dialFor(to);
    const result = h.pbx.callBackDialler!(dial);
    const call = await h.ownerPhone!.nextCall(to);
    await hearsAgent(h, call, call.invitedAt, answeringMachineMessage(BUSINESS, did));
    expect(pickupOf(dial.callBackId)).toEqual({ kind: 'machine', why: 'silence' });
    expect(await result).toEqual({ placed: true, outcome: 'machine', callId: expect.any(Number) });
  }, 180_000);

  it('a person who says it is the wrong number hears one apology and the box hangs up ("wrong-number")', async () => {
    const to = h.ownerPhone!.number('answers');
    const { dial } = await dialFor(to);
    const result = h.pbx.callBackDialler!(dial);
    const call = await h.ownerPhone!.nextCall(to);
    h.whisper.defaultTranscript = 'Hello?';
    const spoke = await untilSpokenTo(call, speech('Hello?'));
    const opened = await hearsAgent(h, call, spoke - 200, callBackOpening(BUSINESS));
    h.whisper.defaultTranscript = 'Sorry, you have the wrong number.';
    await call.media.say(speech('Sorry, you have the wrong number.'));
    await hearsAgent(h, call, opened, CALL_BACK_WRONG_NUMBER);
    expect(await result).toEqual({ placed: true, outcome: 'wrong-number', callId: expect.any(Number) });
  }, 180_000);

  it('a busy phone (486): "busy", no call row', async () => {
    const to = h.ownerPhone!.number('busy');
    const { dial, did } = await dialFor(to);
    expect(await h.pbx.callBackDialler!(dial)).toEqual({ placed: true, outcome: 'busy', callId: null });
    expect(h.ownerPhone!.wasCalled(to)).toBe(true);
    expect(await shownTo(h.ownerPhone!, to)).toEqual({ name: BUSINESS, number: did });
    expect(await h.rows(did)).toEqual([]);
  }, 120_000);

  it('a phone that rings out: "no-answer", the ringing cancelled, no call row', async () => {
    const to = h.ownerPhone!.number('rings');
    const { dial, did } = await dialFor(to);
    expect(await h.pbx.callBackDialler!(dial)).toEqual({ placed: true, outcome: 'no-answer', callId: null });
    await waitUntil(() => expect(h.ownerPhone!.wasCancelled(to)).toBe(true), 30_000, 50);
    expect(await h.rows(did)).toEqual([]);
  }, 120_000);

  it('every engine slot but one taken: "no-slot" at once, and no INVITE sent (inbound callers keep the last slot)', async () => {
    const to = h.ownerPhone!.number('answers');
    const { dial } = await dialFor(to);
    const held: Admission[] = [];
    for (let a = services.agentEngines.pools.admitConversation(); a; a = services.agentEngines.pools.admitConversation()) held.push(a);
    expect(held.length).toBeGreaterThan(1);
    held.pop()!.release();
    try {
      expect(await h.pbx.callBackDialler!(dial)).toEqual({ placed: false, why: 'no-slot' });
      // The one slot left is still there for an inbound caller.
      const inbound = services.agentEngines.pools.admitConversation();
      expect(inbound).not.toBeNull();
      inbound!.release();
    } finally {
      for (const a of held) a.release();
    }
    expect(h.ownerPhone!.wasCalled(to)).toBe(false);
  }, 60_000);
});
