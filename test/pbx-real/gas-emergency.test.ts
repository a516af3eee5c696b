// A gas leak is an emergency for the owner's routing rules, on a real Asterisk 20.17.0 (issue 58):
// an agent-mode caller (SIPp) at a plumber reports a gas smell; they hear the gas safety advice,
// then, under the rule "emergency → on call", today's on-call engineer's phone (a SIPp phone at
// the trunk's far end) rings with the warm-transfer briefing and the caller is put through. The
// model (an Ollama double) never calls the turn urgent here: the gas leak alone routes the call.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEEKDAYS } from '../../contract/call-handling.js';
import { defaultCallHandling, saveCallHandling } from '../../core/call-handling/index.js';
import { tablesOf } from '../../core/db/schema.js';
import { ownerMember } from '../../core/team/store.js';
import { GAS_SAFETY_LINES } from '../../dialogue/spoken/safety-line.js';
import { briefingText } from '../../dialogue/spoken/transfer.js';
import { waitUntil } from '../helpers/wait.js';
import { askAgent, hearsAgent, hearsAudio } from './agent-caller.js';
import { envelopeMatch, readWavSamples, speech } from './audio.js';
import { ANSWERS_ONLY, CALLER, realPbxAvailability, startRealPbx, type RealPbx } from './harness.js';
import type { SipCall } from './sipp.js';

const real = realPbxAvailability();
const KB = 'Q: What are your opening hours?\nA: Eight till six, Monday to Friday.';

describe.skipIf(!real.ok)('a gas leak under the rule "emergency → on call", on a real Asterisk', { timeout: 180_000 }, () => {
  let h: RealPbx;
  beforeAll(async () => {
    h = await startRealPbx({ agent: true, ownerPhone: true, env: ANSWERS_ONLY, pbx: { transferTiming: { keyWaitMs: 1500, lastKeyWaitMs: 1500 } } });
    // Whatever it is asked, the model treats it as a question it cannot answer: never "urgent".
    h.ollama.replier = () => JSON.stringify({ intent: 'question', answered: false, answer: '' });
  });
  afterAll(async () => {
    await h?.close();
  });

  const greeted = (call: SipCall) =>
    waitUntil(() => (call.media.soundMs() > 1500 ? call.media.silenceStartedAfter(0, 700) : undefined) ?? Promise.reject(new Error('greeting not over')), 60_000, 20);

  /** A plumber in agent mode with no put-through number of the owner's, Sarah in the office and Tom the engineer on call every day, each with a phone that answers. */
  async function gasTrade() {
    const db = h.server.database.db;
    const { staff, teamSettings } = tablesOf(db);
    const b = await h.business({ businessName: 'Hale Plumbing', aiMode: 'agent', knowledgeBase: KB, industry: 'plumbing' });
    await saveCallHandling(db, b.userId, { ...defaultCallHandling(), transferNumber: null }, new Date());
    await ownerMember(db, b.userId);
    const phones = { sarah: h.ownerPhone!.number('answers'), tom: h.ownerPhone!.number('answers') };
    const confirmed = new Date();
    await db.insert(staff).values({ userId: b.userId, name: 'Sarah', otherNames: [], roleWord: 'office manager', phone: phones.sarah, phoneConfirmedAt: confirmed, position: 1 });
    const [tom] = await db.insert(staff).values({ userId: b.userId, name: 'Tom', otherNames: [], roleWord: 'engineer', phone: phones.tom, phoneConfirmedAt: confirmed, position: 2 }).returning();
    const rota = Object.fromEntries(WEEKDAYS.map((d) => [d, tom!.id]));
    await db.insert(teamSettings).values({ userId: b.userId, ringFirst: 'off', ringSeconds: 20, copyOwner: false, rules: [{ when: 'emergency', then: { kind: 'on-call' } }], rota, updatedAt: new Date() });
    return { ...b, tom: tom!, phones };
  }

  it('“I can smell gas”: the caller hears the safety advice, then the on-call engineer’s phone rings with the briefing and he takes the call', async () => {
    const { did, tom, phones } = await gasTrade();
    const call = await h.call(did);
    await greeted(call);
    const said = 'I can smell gas in the kitchen, can someone come?';
    const asked = await askAgent(h, call, said);
    await hearsAgent(h, call, asked.endedAt, GAS_SAFETY_LINES.join(' '));

    // Tom's phone rings; he hears the briefing with the caller's words, takes it, and they hear each other.
    const phone = await h.ownerPhone!.nextCall(phones.tom);
    await waitUntil(() => expect(phone.media.silenceStartedAfter(0, 700)).toBeDefined(), 30_000, 20);
    const briefing = readWavSamples(await h.promptFile(briefingText({ businessName: 'Hale Plumbing', callerNumber: CALLER, callerWords: said })));
    expect(envelopeMatch(briefing, phone.media.heard()).score).toBeGreaterThan(0.8);
    await phone.media.digits('1');
    await waitUntil(() => expect(h.coreLog.some((l) => l.msg === 'transfer: caller put through to the owner')).toBe(true), 20_000);
    const words = speech('Hello, Tom here, are you out of the building?');
    const spokeAt = performance.now();
    await phone.media.say(words);
    await hearsAudio(h, call.media, spokeAt, [words], 'the on-call engineer', 20_000);
    await phone.hangUp();
    expect((await call.done).exitCode).toBe(0);

    const row = await h.finishedRow(did);
    expect(row).toMatchObject({
      transferOutcome: 'connected', urgency: 'urgent', urgencyReason: 'The caller mentioned a gas smell or leak.', staffId: tom.id, routingNote: 'Emergency: put through to Tom',
    });
    // The advice was said once, and nobody else was rung.
    expect((row.transcription ?? '').split(GAS_SAFETY_LINES[0]).length - 1).toBe(1);
    expect(h.ownerPhone!.wasCalled(phones.sarah)).toBe(false);
  });
});
