// Issue 56 end to end on a real Asterisk 20.17.0: the agent rings a caller back. A SIPp caller
// leaves a voicemail asking "ring me back after four"; the post-call pipeline settles it and the
// sweep's hook records the call-back; at four the core's sweep hands it to the PBX's real dialler,
// which rings the SIPp phone at the trunk's far end (test/pbx-real/owner-phone.ts, the called
// party), and the agent goes on into an ordinary conversation: a question, then a booking on the
// real diary. Then a phone that rings out (two tries, texted after each, no third) and a node too
// busy for a call-back (it waits, no try counted, and is placed once the inbound call is over).
//
// The core runs on the test server's clock (server.clock.offsetMs, a weekday in December 2026);
// its sweep's timer never fires (started with an hour's period): each test sweeps by hand.
// Asterisk has no fake clock, and a call's row takes its times from Asterisk's events: the
// story's voicemail row is moved onto the core's clock as it is finished (before the pipeline
// reads it), as if the two clocks agreed, as they do on a real box.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { noAnswerText } from '../../core/call-backs/texts.js';
import { recordCallBackWish } from '../../core/call-backs-store/store.js';
import { defaultCallHandling } from '../../core/call-handling/defaults.js';
import { saveCallHandling } from '../../core/call-handling/store.js';
import { confirmationText } from '../../core/booking/rules/text-bodies.js';
import { tablesOf, type CallBackRow } from '../../core/db/schema.js';
import { BOOKING_LINES, booked, offerTimes, readBack } from '../../dialogue/language/booking-lines.js';
import type { OfferedSlot } from '../../dialogue/agent/booking-desk.js';
import { callBackContext, callBackOpening } from '../../dialogue/spoken/call-back-lines.js';
import { bookingReplier } from '../doubles/ollama/booking-replier.js';
import { textsTo } from '../helpers/destinations.js';
import { waitUntil } from '../helpers/wait.js';
import { insertCalls } from '../calls/seed.js';
import { hearsAgent } from './agent-caller.js';
import { speech } from './audio.js';
import { spokenDate, TEN_TO_FOUR_DAILY } from './booking-days.js';
import { shownTo, untilSpokenTo } from './called-party.js';
import { CALLER, heardGreetingAndBeep, realPbxAvailability, startRealPbx, type RealPbx } from './harness.js';
import type { OwnerCall } from './owner-phone.js';

const real = realPbxAvailability();
const BUSINESS = 'Hale Plumbing';
const WISH = 'Could you ring me back after four? I need a boiler service.';
/** The Ollama double's summary of every call (the voicemail's is the first call's, told to the model on the call-back). */
const SUMMARY = 'Wants a boiler service and asked to be rung back after four.';
const HOURS = 'We are open from eight in the morning to six in the evening, Monday to Friday.';
// The opening-hours entry second: a model reply to a stray "Hello?" (the first entry's answer) is not taken for it.
const KB = `Q: Where are you?\nA: In Leeds.\n\nQ: What are your opening hours?\nA: ${HOURS}`;
/** Quiet after a line before the phone speaks: under load a line arrives with gaps, and words said into one barge in. */
const QUIET_MS = 1500;
const DAY_MS = 86_400_000;
/** The sweep's own timer never fires within a test: each one sweeps by hand. */
const NEVER_MS = 3_600_000;

const lines = (transcription: string | null) => transcription!.split('\n').map((l) => l.replace(/ \[interrupted\]$/, ''));

/** The server's clock set to `iso`. */
const setClock = (h: RealPbx, iso: string) => void (h.server.clock.offsetMs = Date.parse(iso) - Date.now());

/** One sweep, and the dials it handed to the PBX heard out to their end and recorded. */
async function sweep(h: RealPbx) {
  const steps = await h.server.services.callBacks.sweep();
  await h.server.services.callBacks.settled();
  return steps;
}

async function callBackRow(h: RealPbx, where: { id: number } | { firstCallId: number }): Promise<CallBackRow | undefined> {
  const { callBacks } = tablesOf(h.server.database.db);
  const by = 'id' in where ? eq(callBacks.id, where.id) : eq(callBacks.firstCallId, where.firstCallId);
  return (await h.server.database.db.select().from(callBacks).where(by))[0];
}

/** A business of the harness's whose owner lets the assistant ring callers back at the time they ask. */
async function agentRingsBack(h: RealPbx, fields: Parameters<RealPbx['business']>[0] = {}) {
  const b = await h.business({ businessName: BUSINESS, ...fields });
  await saveCallHandling(h.server.database.db, b.userId, { ...defaultCallHandling(), callBacksBy: 'agent-at-time' }, h.server.services.now());
  return b;
}

/** A voicemail's call-back to `to`, due now (as the voicemail hook records one). */
async function dueCallBack(h: RealPbx, userId: number, did: string, to: string): Promise<CallBackRow> {
  const [call] = await insertCalls(h.server, [{ userId, status: 'voicemail', mode: 'voicemail', fromNumber: to, toNumber: did, aiSummary: 'A leak under the kitchen sink.' }]);
  const now = h.server.services.now();
  return recordCallBackWish(h.server.database.db, { userId, firstCallId: call!.id, callerNumber: to, dueAt: now, source: 'voicemail' }, now);
}

describe.skipIf(!real.ok)('the agent rings a caller back (issue 56), on a real Asterisk', { timeout: 300_000 }, () => {
  let h: RealPbx;
  /** Calls to these numbers get their row's times moved onto the core's clock when they finish. */
  const onServerClock = new Set<string>();
  const moved = new Map<number, Promise<void>>();

  beforeAll(async () => {
    h = await startRealPbx({
      ownerPhone: true,
      agent: true,
      pipeline: true,
      // Engine slots for a call-back to spare one for inbound callers; the stall watch past any slow turn.
      env: { OLLAMA_SLOTS: '3', WHISPER_SLOTS: '1', AGENT_VOICEMAIL_AFTER_MS: '30000' },
      pbx: { callBackRingSeconds: 6 },
      // Before the pipeline subscribes: the row is on the core's clock before the pipeline reads it.
      services: (s) => s.hooks.callFinished.push((callId) => moved.set(callId, moveOntoServerClock(callId))),
    });
    h.ollama.replier = bookingReplier(SUMMARY);
    // The booking texts' worker (the confirmation), and the sweep with the PBX's own dialler.
    h.server.services.booking.start();
    expect(h.server.services.callBacks.start(h.pbx.callBackDialler, NEVER_MS)).toBe(true);
  });
  afterAll(async () => {
    await h?.server.services.booking.stop();
    await h?.close();
  });

  async function moveOntoServerClock(callId: number): Promise<void> {
    const db = h.server.database.db;
    const { calls } = tablesOf(db);
    const row = (await db.select().from(calls).where(eq(calls.id, callId)))[0];
    if (!row || !onServerClock.has(row.toNumber) || row.mode !== 'voicemail') return;
    const shift = (d: Date | null) => d && new Date(d.getTime() + h.server.clock.offsetMs);
    await db.update(calls).set({ createdAt: shift(row.createdAt)!, endedAt: shift(row.endedAt) }).where(eq(calls.id, callId));
  }

  /** The phone says `text` (the Whisper double told the words); resolves when its last frame left. */
  async function say(call: OwnerCall, text: string): Promise<number> {
    h.whisper.defaultTranscript = text;
    await call.media.say(speech(text));
    return call.media.sentAt;
  }

  /** A day 3+ days ahead (on the server's clock) whose first three times start at ten o'clock. */
  async function dayToAsk(userId: number): Promise<{ wish: string; slots: OfferedSlot[] }> {
    const desk = h.server.services.booking.desk(userId, { preview: true });
    for (let ahead = 3; ahead < 12; ahead++) {
      const wish = `I would like to book a boiler service on ${spokenDate(new Date(h.server.services.now().getTime() + ahead * DAY_MS))}.`;
      const offer = await desk.offer({ wish });
      if (offer.kind === 'offered' && offer.slots[0]!.spoken.endsWith(" at ten o'clock")) return { wish, slots: offer.slots };
    }
    throw new Error("no day in the next fortnight offers ten o'clock first");
  }

  it('a voicemail asks "ring me back after four": at four the box rings, the caller hears the disclosure, gets an answer and books', async () => {
    const db = h.server.database.db;
    // Tuesday 8 December 2026, 10:00 London (GMT): open by the default hours (Mon–Fri 09:00–17:30).
    setClock(h, '2026-12-08T10:00:00.000Z');
    const caller = h.ownerPhone!.number('answers');
    const { did, userId } = await agentRingsBack(h, { knowledgeBase: KB });
    const { bookingRules, bookingServices, bookings } = tablesOf(db);
    await db.insert(bookingServices).values({ userId, name: 'boiler service', durationMinutes: 60, bufferMinutes: 0 });
    await db.insert(bookingRules).values({ userId, hours: TEN_TO_FOUR_DAILY, noticeMinutes: 120, horizonDays: 14, dailyCap: null, updatedAt: new Date() });
    onServerClock.add(did);

    // The caller rings the business (voicemail mode) and leaves the message.
    h.whisper.defaultTranscript = WISH;
    const vm = await h.call(did, caller);
    await heardGreetingAndBeep(vm);
    await vm.media.say(speech(WISH));
    expect((await vm.done).exitCode).toBe(0);
    const first = await h.finishedRow(did, 60_000);
    await moved.get(first.id);
    expect(first).toMatchObject({ status: 'voicemail', mode: 'voicemail', fromNumber: caller });

    // Settled by the pipeline (transcript, summary, the owner told), then read for the wish.
    const wished = await waitUntil(async () => (await callBackRow(h, { firstCallId: first.id })) ?? Promise.reject(new Error('no call-back yet')), 90_000, 100);
    expect(wished).toMatchObject({ source: 'voicemail', state: 'waiting', tries: 0, callerNumber: caller, userId });
    expect(wished.dueAt.toISOString()).toBe('2026-12-08T16:00:00.000Z');
    expect((await db.select().from(tablesOf(db).calls).where(eq(tablesOf(db).calls.id, first.id)))[0]!.transcription).toBe(WISH);

    // A minute before four nothing is due.
    setClock(h, '2026-12-08T15:59:00.000Z');
    expect(await sweep(h)).toEqual([]);
    expect(h.ownerPhone!.wasCalled(caller)).toBe(false);

    setClock(h, '2026-12-08T16:00:00.000Z');
    const { wish, slots } = await dayToAsk(userId);
    h.whisper.defaultTranscript = 'Hello?';
    const swept = h.server.services.callBacks.sweep();
    const phone = await h.ownerPhone!.nextCall(caller, 60_000);
    expect(await swept).toEqual([{ id: wished.id, did: 'dialled' }]);
    expect(await shownTo(h.ownerPhone!, caller)).toEqual({ name: BUSINESS, number: did });
    const spoke = await untilSpokenTo(phone, speech('Hello?'), 1500);
    const opened = await hearsAgent(h, phone, spoke - 200, callBackOpening(BUSINESS), QUIET_MS);

    // An ordinary conversation from here: a question from the knowledge base, then a booking.
    const asked = await say(phone, 'What are your opening hours?');
    await hearsAgent(h, phone, Math.max(asked, opened), HOURS, QUIET_MS);
    const book = await say(phone, wish);
    await hearsAgent(h, phone, book, offerTimes(slots), QUIET_MS);
    const pick = await say(phone, "Ten o'clock please.");
    await hearsAgent(h, phone, pick, BOOKING_LINES.askName, QUIET_MS);
    const name = await say(phone, 'My name is Sam Jones.');
    await hearsAgent(h, phone, name, readBack(slots[0]!, 'Sam Jones', caller), QUIET_MS);
    const yes = await say(phone, 'Yes please.');
    await hearsAgent(h, phone, yes, booked(slots[0]!), QUIET_MS);
    await phone.hangUp();
    await h.server.services.callBacks.settled();

    // The try is answered, with its own call; the booking is in the diary from that call.
    const after = (await callBackRow(h, { id: wished.id }))!;
    expect(after).toMatchObject({ state: 'answered', tries: 1, lastOutcome: 'answered' });
    expect(after.callBackCallId).not.toBeNull();
    const made = await db.select().from(bookings).where(eq(bookings.userId, userId));
    // The call-back's own call: from the caller to the business, in agent mode, the words as said.
    const { calls } = tablesOf(db);
    const own = await waitUntil(async () => {
      const [r] = await db.select().from(calls).where(eq(calls.id, after.callBackCallId!));
      if (!r?.endedAt || !h.finished.includes(r.id)) throw new Error('the call-back\'s call is not finished yet');
      return r;
    }, 60_000, 100);
    expect(own).toMatchObject({ fromNumber: caller, toNumber: did, mode: 'agent', status: 'answered' });
    expect(lines(own.transcription)).toEqual([
      `Agent: ${callBackOpening(BUSINESS)}`,
      'Caller: What are your opening hours?',
      `Agent: ${HOURS}`,
      `Caller: ${wish}`,
      `Agent: ${offerTimes(slots)}`,
      "Caller: Ten o'clock please.",
      `Agent: ${BOOKING_LINES.askName}`,
      'Caller: My name is Sam Jones.',
      `Agent: ${readBack(slots[0]!, 'Sam Jones', caller)}`,
      'Caller: Yes please.',
      `Agent: ${booked(slots[0]!)}`,
    ]);
    // The model was told what the caller wanted on their first call.
    expect(h.ollama.requests.some((r) => JSON.stringify(r.body).includes(JSON.stringify(callBackContext(SUMMARY)).slice(1, -1)))).toBe(true);
    expect(made).toMatchObject([{ status: 'booked', callerName: 'Sam Jones', callerNumber: caller, callId: after.callBackCallId, startAt: slots[0]!.start }]);

    // The caller's confirmation text, once: sent by the booking's job, which is then done.
    const confirmation = confirmationText(BUSINESS, 'boiler service', slots[0]!.start, h.server.services.booking.icsLink(made[0]!.id));
    const { jobs } = tablesOf(db);
    await waitUntil(async () => {
      const [job] = await db.select().from(jobs).where(and(eq(jobs.kind, 'booking-text'), eq(jobs.key, `booking-text:confirm:${made[0]!.id}`)));
      expect(job?.status).toBe('done');
    }, 60_000, 100);
    expect(textsTo(h.server, caller).filter((t) => t.body === confirmation)).toHaveLength(1);
    expect(h.ownerPhone!.timesCalled(caller)).toBe(1);
  });

  it('a phone that rings out: texted once, tried again 30 minutes later (a second INVITE), then no answer and no third ring', async () => {
    // Wednesday 9 December 2026, 10:00 London: open.
    setClock(h, '2026-12-09T10:00:00.000Z');
    const to = h.ownerPhone!.number('rings');
    const { did, userId } = await agentRingsBack(h);
    const cb = await dueCallBack(h, userId, did, to);
    const text = noAnswerText(did);

    expect(await sweep(h)).toEqual([{ id: cb.id, did: 'dialled' }]);
    await h.ownerPhone!.nextCall(to);
    await waitUntil(() => expect(h.ownerPhone!.wasCancelled(to)).toBe(true), 30_000, 50);
    const first = (await callBackRow(h, cb))!;
    expect(first).toMatchObject({ state: 'waiting', tries: 1, lastOutcome: 'no-answer' });
    expect(first.dueAt.getTime() - first.lastTryAt!.getTime()).toBe(30 * 60_000);
    expect(text).toMatch(/^We tried to ring you back; reply CALL for another try or call us on \+44 /);
    expect(textsTo(h.server, to).map((t) => t.body)).toEqual([text]);

    // Thirty minutes later: the second try, its own INVITE.
    h.server.clock.offsetMs = first.dueAt.getTime() - Date.now() + 1000;
    expect(await sweep(h)).toEqual([{ id: cb.id, did: 'dialled' }]);
    await h.ownerPhone!.nextCall(to);
    expect(h.ownerPhone!.timesCalled(to)).toBe(2);
    expect(await callBackRow(h, cb)).toMatchObject({ state: 'no-answer', tries: 2, lastOutcome: 'no-answer', doneBy: 'agent' });
    expect(textsTo(h.server, to).map((t) => t.body)).toEqual([text, text]);

    // An hour on: nothing is due, nothing rings.
    h.server.clock.offsetMs += 3600_000;
    expect(await sweep(h)).toEqual([]);
    expect(h.ownerPhone!.timesCalled(to)).toBe(2);
    expect((await callBackRow(h, cb))!.state).toBe('no-answer');
  });
});

describe.skipIf(!real.ok)('a call-back on a node busy with callers ringing in (issue 56), on a real Asterisk', { timeout: 300_000 }, () => {
  let h: RealPbx;
  beforeAll(async () => {
    h = await startRealPbx({
      ownerPhone: true,
      agent: true,
      // Two calls at most: one caller in progress plus the one more a call-back must leave room for.
      env: { OLLAMA_SLOTS: '3', WHISPER_SLOTS: '1', ADMISSION_MAX_CALLS: '2', CALL_BACK_NO_SLOT_WAIT_MS: '60000' },
      pbx: { callBackRingSeconds: 6 },
    });
    expect(h.server.services.callBacks.start(h.pbx.callBackDialler, NEVER_MS)).toBe(true);
  });
  afterAll(async () => {
    await h?.close();
  });

  it('while a caller is in a call the call-back is not placed (no INVITE, no try); the caller goes on; once they hang up the next sweep places it', async () => {
    setClock(h, '2026-12-09T10:00:00.000Z');
    const to = h.ownerPhone!.number('busy');
    const { did, userId } = await agentRingsBack(h);
    const cb = await dueCallBack(h, userId, did, to);

    const inbound = await h.call(did);
    await heardGreetingAndBeep(inbound);
    expect(h.pbx.app.activeCalls).toBe(1);
    const logFrom = h.coreLog.length;
    // Handed to the dialler, which places nothing: the node would refuse the next caller.
    expect(await sweep(h)).toEqual([{ id: cb.id, did: 'dialled' }]);
    const held = (await callBackRow(h, cb))!;
    expect(held).toMatchObject({ state: 'waiting', tries: 0, lastTryAt: null });
    expect(held.dueAt.getTime()).toBeGreaterThanOrEqual(h.server.services.now().getTime() + 50_000);
    expect(h.ownerPhone!.wasCalled(to)).toBe(false);
    expect(h.coreLog.slice(logFrom).find((l) => l.msg.startsWith('call-back: the node is busy'))).toMatchObject({ callBackId: cb.id });

    // The caller in progress goes on: their message is taken as any.
    const message = speech('Hello, this is Sam, my boiler has stopped, please call me.');
    await inbound.media.say(message);
    expect((await inbound.done).exitCode).toBe(0);
    // The business's rows hold the seeded first call too: the caller's is the one from CALLER.
    const row = await waitUntil(async () => {
      const r = (await h.rows(did)).find((c) => c.fromNumber === CALLER);
      if (!r?.endedAt || !h.finished.includes(r.id)) throw new Error('the caller\'s call is not finished yet');
      return r;
    }, 60_000, 100);
    expect(row.status).toBe('voicemail');
    await waitUntil(() => expect(h.pbx.app.activeCalls).toBe(0), 30_000);

    // Before the wait is over the call-back stays put; after it, it is placed (the phone is busy).
    expect(await sweep(h)).toEqual([]);
    h.server.clock.offsetMs += 61_000;
    expect(await sweep(h)).toEqual([{ id: cb.id, did: 'dialled' }]);
    expect(h.ownerPhone!.timesCalled(to)).toBe(1);
    expect(await callBackRow(h, cb)).toMatchObject({ state: 'waiting', tries: 1, lastOutcome: 'busy' });
  });
});
