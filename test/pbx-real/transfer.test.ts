// Warm transfer on a real Asterisk 20.17.0: a caller (SIPp) is put through to the owner's
// phone (a second SIPp, the trunk's far end) over ARI originate, with the owner briefed first.
// Every outcome is a real SIP exchange: the owner answers and presses 1 or 2, never answers,
// is busy (486), rejects (603), or answers and presses nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { outboundCalls, phoneNumbers } from '../helpers/tables.js';
import { activeCustomer } from '../helpers/accounts.js';
import { briefingText, CANNOT_TAKE_CALL_NOW, PUTTING_THROUGH, TEST_DONE, TEST_INTRO } from '../../dialogue/spoken/transfer.js';
import { defaultCallHandling, saveCallHandling } from '../../core/call-handling/index.js';
import { DEFAULT_OUTBOUND_POLICY } from '../../core/outbound/index.js';
import { waitUntil } from '../helpers/wait.js';
import { envelopeMatch, readWavSamples, speech } from './audio.js';
import type { OwnerBehaviour } from './owner-phone.js';
import { CALLER, realPbxAvailability, startRealPbx, type RealPbx } from './harness.js';

const real = realPbxAvailability();

/**
 * The calls placed to this owner's phone, once `n` of them have ended and been counted. A call
 * is written when Asterisk takes it, at its bound (ring time plus the answered limit, at least
 * `bound`), and settled at what it took when its leg ends.
 */
const placedCalls = (h: RealPbx, userId: number, n: number, bound = DEFAULT_OUTBOUND_POLICY.answeredMaxSeconds) =>
  waitUntil(async () => {
    const rows = await h.server.database.db.select().from(outboundCalls).where(eq(outboundCalls.userId, userId));
    if (rows.length !== n) throw new Error(`${rows.length} calls placed counted, expected ${n}`);
    if (rows.some((r) => r.seconds >= bound)) throw new Error('a call placed is still counted at its bound');
    return rows;
  }, 15_000);

describe.skipIf(!real.ok)('putting a caller through to the owner, on a real Asterisk', () => {
  let h: RealPbx;
  beforeAll(async () => {
    h = await startRealPbx({ ownerPhone: true, pbx: { transferTiming: { keyWaitMs: 1500, lastKeyWaitMs: 1500 } } });
  });
  afterAll(async () => {
    await h?.close();
  });

  const heardMatches = async (heard: Int16Array, text: string) => envelopeMatch(readWavSamples(await h.promptFile(text)), heard).score;

  /** A business whose owner wants to be rung first, at a number that behaves as `behaviour`. */
  async function ringFirstBusiness(behaviour: OwnerBehaviour, ringSeconds = 20) {
    const to = h.ownerPhone!.number(behaviour);
    const business = await h.business({ businessName: 'Hale Plumbing' });
    await saveCallHandling(h.server.database.db, business.userId, { ...defaultCallHandling(), transferNumber: to, transferTimeoutSeconds: ringSeconds, openRingFirst: true }, new Date());
    return { ...business, to };
  }

  /** The core has given up on the owner's phone (logged with why), or connected the two. */
  const transferLog = (did: string, outcome: string) =>
    waitUntil(async () => {
      const callId = (await h.rows(did))[0]?.id;
      const line = h.coreLog.find((l) => l.callId === callId && l.msg.startsWith('transfer:') && (l.outcome === outcome || (outcome === 'connected' && l.msg.includes('put through'))));
      if (!line) throw new Error(`no transfer log line for ${outcome}`);
      return line;
    }, 30_000);

  /** The caller's message is being recorded: past the sorry, the greeting and the beep. */
  const messageBeingRecorded = (did: string) =>
    waitUntil(async () => {
      const row = (await h.rows(did))[0];
      if (!row) throw new Error('no call row yet');
      const live = await h.asterisk.ariGet<{ state: string }>(`/recordings/live/call-${row.id}`).catch(() => undefined);
      if (live?.state !== 'recording') throw new Error('not recording the message yet');
    }, 60_000, 50);

  it('owner answers and presses 1: briefed, then caller and owner hear each other until the owner hangs up', async () => {
    const { did, to, userId } = await ringFirstBusiness('answers');
    const call = await h.call(did);
    const owner = await h.ownerPhone!.nextCall(to);
    // The owner hears the briefing; the caller meanwhile heard "putting you through" and ringback.
    await waitUntil(() => expect(owner.media.silenceStartedAfter(0, 700)).toBeDefined(), 30_000, 20);
    expect(await heardMatches(owner.media.heard(), briefingText({ businessName: 'Hale Plumbing', callerNumber: CALLER }))).toBeGreaterThan(0.8);
    expect(await heardMatches(call.media.heard(), PUTTING_THROUGH)).toBeGreaterThan(0.8);
    await owner.media.digits('1');
    await transferLog(did, 'connected');

    const ownerWords = speech('Hello, Hale Plumbing, Dave speaking. How can I help?');
    const ownerSpokeAt = performance.now();
    await owner.media.say(ownerWords);
    await waitUntil(() => expect(call.media.soundMs(ownerSpokeAt)).toBeGreaterThan(1500), 20_000);
    const callerWords = speech('My boiler is leaking all over the kitchen floor.');
    const callerSpokeAt = performance.now();
    await call.media.say(callerWords);
    await waitUntil(() => expect(owner.media.soundMs(callerSpokeAt)).toBeGreaterThan(1500), 20_000);
    await waitUntil(() => expect(envelopeMatch(ownerWords, call.media.heard(ownerSpokeAt)).score).toBeGreaterThan(0.8), 10_000);
    await waitUntil(() => expect(envelopeMatch(callerWords, owner.media.heard(callerSpokeAt)).score).toBeGreaterThan(0.8), 10_000);

    await owner.hangUp();
    expect((await call.done).exitCode).toBe(0); // Asterisk hung the caller up too
    const row = await h.finishedRow(did);
    expect(row).toMatchObject({ status: 'answered', transferOutcome: 'connected', recordingFile: null });
    // The two spoke for at least as long as their words took.
    expect(row.transferTalkSeconds).toBeGreaterThanOrEqual(Math.floor((ownerWords.length + callerWords.length) / 8000));
    // The call placed to the owner counts towards their daily minutes: ringing, briefing and talk.
    const [placed] = await placedCalls(h, userId, 1);
    expect(placed!.seconds).toBeGreaterThan(row.transferTalkSeconds!);
  }, 120_000);

  it('an owner past today’s minutes of calls to their phone is not rung: the caller goes straight to the greeting', async () => {
    const { did, to, userId } = await ringFirstBusiness('answers');
    await h.server.database.db.insert(outboundCalls).values({ userId, startedAt: new Date(), seconds: 120 * 60 });
    const call = await h.call(did);
    await messageBeingRecorded(did);
    await call.media.say(speech('Please call me back.'));
    expect((await call.done).exitCode).toBe(0);
    expect(await h.finishedRow(did)).toMatchObject({ status: 'voicemail', transferOutcome: null });
    expect(h.ownerPhone!.wasCalled(to)).toBe(false);
    // Only the day's minutes written above: no call was placed.
    expect(await placedCalls(h, userId, 1, Infinity)).toHaveLength(1);
  }, 120_000);

  it('“Test transfer” rings the owner’s phone, plays a sample briefing and says goodbye; a busy phone is reported as busy', async () => {
    const owner = await activeCustomer(h.server, { businessName: 'Hale Plumbing' });
    await h.server.database.db.insert(phoneNumbers).values({ phoneNumber: '+447700900888', provider: 'static', providerSid: 'test', userId: owner.user.id, assignedAt: new Date() });
    expect((await owner.client.post('/api/user/call-handling/test-transfer')).body).toEqual({ message: 'Save a transfer number first.' });

    const to = h.ownerPhone!.number('answers');
    expect((await owner.client.request('PUT', '/api/user/call-handling', { transferNumber: to })).status).toBe(200);
    const res = await owner.client.post('/api/user/call-handling/test-transfer');
    expect(res.status).toBe(200);
    expect(res.body.message).toMatch(/^Your phone \(.+\) answered: listen to the sample briefing/);
    const phone = await h.ownerPhone!.nextCall(to);
    await waitUntil(() => expect(phone.media.soundMs()).toBeGreaterThan(3000), 30_000, 20);
    await waitUntil(async () => expect(await heardMatches(phone.media.heard(), TEST_INTRO)).toBeGreaterThan(0.8), 30_000, 250);
    const pressedAt = performance.now();
    await phone.media.digits('1');
    await waitUntil(async () => expect(await heardMatches(phone.media.heard(pressedAt), TEST_DONE)).toBeGreaterThan(0.8), 30_000, 250);
    // Then the test call hangs up by itself.
    await waitUntil(async () => expect(await h.asterisk.ariGet<unknown[]>('/channels')).toEqual([]), 20_000, 100);

    expect((await owner.client.request('PUT', '/api/user/call-handling', { transferNumber: h.ownerPhone!.number('busy') })).status).toBe(200);
    const busy = await owner.client.post('/api/user/call-handling/test-transfer');
    expect(busy.body.message).toMatch(/^Your phone \(.+\) was busy\./);
  }, 120_000);

  for (const [behaviour, outcome, act] of [
    ['answers', 'declined', 'presses 2'],
    ['answers', 'no-answer', 'answers but presses nothing (its own voicemail)'],
    ['busy', 'busy', 'is busy (486)'],
    ['declines', 'rejected', 'rejects the call (603)'],
    ['rings', 'no-answer', 'never answers'],
  ] as const) {
    // Each a real SIP exchange at the owner's phone: 200 then 2 or nothing, 486, 603, or 180 until CANCEL.
    it(`owner ${act}: the caller hears they can't take the call, then leaves a voicemail`, async () => {
      const { did, to } = await ringFirstBusiness(behaviour, 4);
      const call = await h.call(did);
      const owner = await h.ownerPhone!.nextCall(to);
      if (act === 'presses 2') {
        await waitUntil(() => expect(owner.media.soundMs()).toBeGreaterThan(1000), 30_000, 20);
        await owner.media.digits('2');
      }
      await transferLog(did, outcome);
      await messageBeingRecorded(did);
      expect(await heardMatches(call.media.heard(), CANNOT_TAKE_CALL_NOW)).toBeGreaterThan(0.8);
      const words = speech('Please call me back about the boiler.');
      await call.media.say(words);
      expect((await call.done).exitCode).toBe(0);
      const row = await h.finishedRow(did);
      expect(row).toMatchObject({ status: 'voicemail', transferOutcome: outcome, transferTalkSeconds: 0 });
    }, 120_000);
  }
});

describe.skipIf(!real.ok)('a caller who hangs up while the owner’s phone rings, on a real Asterisk', () => {
  let h: RealPbx;
  beforeAll(async () => {
    h = await startRealPbx({ ownerPhone: true });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('stops the owner’s phone ringing (CANCEL) and logs a missed call the owner did not answer', async () => {
    const to = h.ownerPhone!.number('rings');
    const { did, userId } = await h.business({ businessName: 'Hale Plumbing' });
    await saveCallHandling(h.server.database.db, userId, { ...defaultCallHandling(), transferNumber: to, openRingFirst: true }, new Date());
    const call = await h.call(did);
    const owner = await h.ownerPhone!.nextCall(to);
    await call.hangUp();
    expect((await call.done).exitCode).toBe(0);
    const row = await h.finishedRow(did);
    expect(row).toMatchObject({ status: 'missed', recordingFile: null, transferOutcome: 'no-answer' });
    // Asterisk's leg to the owner is gone: nothing left in the app.
    await waitUntil(async () => expect(await h.asterisk.ariGet<unknown[]>('/channels')).toEqual([]), 15_000);
    expect(owner.callId).toBeTruthy();
    // A call placed and never answered still held the trunk while it rang: it is counted.
    await placedCalls(h, userId, 1);
  }, 90_000);
});

describe.skipIf(!real.ok)('a put-through past its limit (PUT_THROUGH_MAX_SECONDS), on a real Asterisk', () => {
  const LIMIT = 15;
  let h: RealPbx;
  beforeAll(async () => {
    h = await startRealPbx({ ownerPhone: true, env: { PUT_THROUGH_MAX_SECONDS: String(LIMIT) } });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('counts while it lasts, then the owner’s phone is hung up at the limit and the caller’s call ends properly', async () => {
    const to = h.ownerPhone!.number('answers');
    const { did, userId } = await h.business({ businessName: 'Hale Plumbing' });
    const ringSeconds = 20;
    await saveCallHandling(h.server.database.db, userId, { ...defaultCallHandling(), transferNumber: to, transferTimeoutSeconds: ringSeconds, openRingFirst: true }, new Date());
    // The briefing is spoken from the prompt cache, so the owner can take the call at once.
    await h.promptFile(briefingText({ businessName: 'Hale Plumbing', callerNumber: CALLER }));
    const call = await h.call(did);
    const owner = await h.ownerPhone!.nextCall(to);
    await waitUntil(() => expect(owner.media.soundMs()).toBeGreaterThan(0), 30_000, 20);
    await owner.media.digits('1');
    await waitUntil(async () => {
      const callId = (await h.rows(did))[0]?.id;
      if (!h.coreLog.some((l) => l.callId === callId && l.msg === 'transfer: caller put through to the owner')) throw new Error('not put through yet');
    }, 30_000);

    // While the two talk, the call already counts towards the owner's day, as the longest it may last.
    const live = await h.server.database.db.select().from(outboundCalls).where(eq(outboundCalls.userId, userId));
    expect(live.map((r) => r.seconds)).toEqual([ringSeconds + LIMIT]);

    // Neither hangs up: the core ends the owner's leg at the limit, then the caller's call.
    expect((await call.done).exitCode).toBe(0);
    expect(h.coreLog.filter((l) => l.msg === 'transfer: the call to the owner’s phone reached its time limit: hanging up').map((l) => l.limitSeconds)).toEqual([LIMIT]);
    const row = await h.finishedRow(did);
    expect(row).toMatchObject({ status: 'answered', transferOutcome: 'connected', recordingFile: null });
    await waitUntil(async () => expect(await h.asterisk.ariGet<unknown[]>('/channels')).toEqual([]), 15_000);
    // What the call took replaces its bound: the owner's leg was answered for the whole limit.
    const [placed] = await placedCalls(h, userId, 1, ringSeconds + LIMIT);
    expect(placed!.seconds).toBeGreaterThanOrEqual(LIMIT);
    expect(owner.callId).toBeTruthy();
  }, 120_000);
});
