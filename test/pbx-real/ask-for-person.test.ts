// "Can I speak to Sarah?" on a real Asterisk 20.17.0 (issue 58): an agent-mode caller (SIPp)
// asks for a team member; her phone (a SIPp phone at the trunk's far end) rings with the
// warm-transfer briefing and the caller is put through; outside her hours she is not rung
// and the caller leaves a message for her; an emergency under the rule "emergency → on call"
// rings today's on-call engineer, not the owner. Whisper and Ollama are doubles.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEEKDAYS } from '../../contract/call-handling.js';
import type { RoutingRule } from '../../contract/team.js';
import { defaultCallHandling, saveCallHandling } from '../../core/call-handling/index.js';
import { tablesOf } from '../../core/db/schema.js';
import { ownerMember } from '../../core/team/store.js';
import { fixedLines } from '../../dialogue/language/fixed-lines.js';
import { briefingText } from '../../dialogue/spoken/transfer.js';
import { waitUntil } from '../helpers/wait.js';
import { askAgent, hearsAgent, hearsAudio } from './agent-caller.js';
import { envelopeMatch, readWavSamples, speech } from './audio.js';
import { ANSWERS_ONLY, CALLER, realPbxAvailability, startRealPbx, type RealPbx } from './harness.js';
import type { SipCall } from './sipp.js';

const real = realPbxAvailability();
const KB = 'Q: What are your opening hours?\nA: Eight till six, Monday to Friday.';
const reply = (intent: string, answered: boolean, answer: string) => JSON.stringify({ intent, answered, answer });
const NEVER = Object.fromEntries(WEEKDAYS.map((d) => [d, []])) as unknown as Record<(typeof WEEKDAYS)[number], []>;

describe.skipIf(!real.ok)('asking for a team member in agent mode, on a real Asterisk', { timeout: 180_000 }, () => {
  let h: RealPbx;
  beforeAll(async () => {
    h = await startRealPbx({ agent: true, ownerPhone: true, env: ANSWERS_ONLY, pbx: { transferTiming: { keyWaitMs: 1500, lastKeyWaitMs: 1500 } } });
    h.ollama.replier = (req) => {
      const last = (req.body.messages as Array<{ content: string }>).at(-1)?.content ?? '';
      if (/emergency/i.test(last)) return reply('urgent', false, '');
      return reply('question', false, '');
    };
  });
  afterAll(async () => {
    await h?.close();
  });

  const greeted = (call: SipCall) =>
    waitUntil(() => (call.media.soundMs() > 1500 ? call.media.silenceStartedAfter(0, 700) : undefined) ?? Promise.reject(new Error('greeting not over')), 60_000, 20);

  /**
   * An agent-mode plumber whose owner has no put-through number (so only the team can be rung),
   * with Sarah (working as the business is open, or never) and Tom the engineer, each with a
   * confirmed phone that answers.
   */
  async function teamBusiness(o: { sarahWorks: boolean; rules?: RoutingRule[]; tomOnCall?: boolean }) {
    const db = h.server.database.db;
    const { staff, teamSettings } = tablesOf(db);
    const b = await h.business({ businessName: 'Hale Plumbing', aiMode: 'agent', knowledgeBase: KB, industry: 'plumbing' });
    await saveCallHandling(db, b.userId, { ...defaultCallHandling(), transferNumber: null }, new Date());
    await ownerMember(db, b.userId);
    const phones = { sarah: h.ownerPhone!.number('answers'), tom: h.ownerPhone!.number('answers') };
    const confirmed = new Date();
    const [sarah] = await db
      .insert(staff)
      .values({ userId: b.userId, name: 'Sarah', otherNames: ['Sal'], roleWord: 'office manager', phone: phones.sarah, phoneConfirmedAt: confirmed, hours: o.sarahWorks ? null : NEVER, position: 1 })
      .returning();
    const [tom] = await db.insert(staff).values({ userId: b.userId, name: 'Tom', otherNames: [], roleWord: 'engineer', phone: phones.tom, phoneConfirmedAt: confirmed, position: 2 }).returning();
    const rota = o.tomOnCall ? Object.fromEntries(WEEKDAYS.map((d) => [d, tom!.id])) : {};
    await db.insert(teamSettings).values({ userId: b.userId, ringFirst: 'off', ringSeconds: 20, copyOwner: false, rules: o.rules ?? [], rota, updatedAt: new Date() });
    return { ...b, sarah: sarah!, tom: tom!, phones };
  }

  /** The rung member took the call: briefed with the caller's words, presses 1, the two hear each other. */
  async function takesTheCall(to: string, callerWords: string, call: SipCall) {
    const phone = await h.ownerPhone!.nextCall(to);
    await waitUntil(() => expect(phone.media.silenceStartedAfter(0, 700)).toBeDefined(), 30_000, 20);
    const briefing = readWavSamples(await h.promptFile(briefingText({ businessName: 'Hale Plumbing', callerNumber: CALLER, callerWords })));
    expect(envelopeMatch(briefing, phone.media.heard()).score).toBeGreaterThan(0.8);
    await phone.media.digits('1');
    await waitUntil(() => expect(h.coreLog.some((l) => l.msg === 'transfer: caller put through to the owner')).toBe(true), 20_000);
    const words = speech('Hello, Hale Plumbing, how can I help?');
    const spokeAt = performance.now();
    await phone.media.say(words);
    await hearsAudio(h, call.media, spokeAt, [words], 'the team member', 20_000);
    await phone.hangUp();
  }

  it('“Can I speak to Sarah?”: Sarah’s phone rings with the briefing, she takes the call, and the call is hers', async () => {
    const { did, sarah, phones } = await teamBusiness({ sarahWorks: true });
    const call = await h.call(did);
    await greeted(call);
    const asked = 'Hello, can I speak to Sarah please?';
    await askAgent(h, call, asked);
    await takesTheCall(phones.sarah, asked, call);
    expect((await call.done).exitCode).toBe(0);
    const row = await h.finishedRow(did);
    expect(row).toMatchObject({ status: 'answered', mode: 'agent', transferOutcome: 'connected', staffId: sarah.id, routingNote: 'Asked for Sarah: put through' });
    expect(h.ownerPhone!.wasCalled(phones.tom)).toBe(false);
  });

  it('Sarah outside her hours: not rung; the caller hears she is not available and leaves a message for her', async () => {
    const { did, sarah, phones } = await teamBusiness({ sarahWorks: false });
    const call = await h.call(did);
    await greeted(call);
    const asked = await askAgent(h, call, 'Is Sarah there?');
    await hearsAgent(h, call, asked.endedAt, fixedLines('en').personNotAvailable('Sarah'));
    const left = await askAgent(h, call, 'This is Jo Bloggs, please ask her to call me about the invoice.');
    await hearsAgent(h, call, left.endedAt, fixedLines('en').lines.messageTaken);
    await call.hangUp();
    expect((await call.done).exitCode).toBe(0);
    const row = await h.finishedRow(did);
    expect(row).toMatchObject({ staffId: sarah.id, routingNote: 'Asked for Sarah: not working now, message taken for Sarah', transferOutcome: null });
    expect(row.transcription).toContain('call me about the invoice');
    expect(h.ownerPhone!.wasCalled(phones.sarah)).toBe(false);
  });

  it('“It’s an emergency” under the rule “emergency → on call”: today’s on-call engineer is rung and takes the call', async () => {
    const { did, tom, phones } = await teamBusiness({ sarahWorks: true, rules: [{ when: 'emergency', then: { kind: 'on-call' } }], tomOnCall: true });
    const call = await h.call(did);
    await greeted(call);
    const said = "It's an emergency, there's water pouring through the ceiling.";
    await askAgent(h, call, said);
    await takesTheCall(phones.tom, said, call);
    expect((await call.done).exitCode).toBe(0);
    const row = await h.finishedRow(did);
    expect(row).toMatchObject({ transferOutcome: 'connected', urgency: 'urgent', staffId: tom.id, routingNote: 'Emergency: put through to Tom' });
    expect(h.ownerPhone!.wasCalled(phones.sarah)).toBe(false);
  });
});
