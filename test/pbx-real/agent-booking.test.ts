// The agent books a caller into the owner's diary (issue 41), on a real Asterisk: SIPp callers
// speak through espeak-ng, the Ollama double plays the model from the prompt it is sent
// (test/doubles/ollama/booking-replier.ts) and a FAKE in-memory diary stands in for core/booking
// behind the BookingDesk seam. What is asserted is what the caller heard and what was stored.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_LINES, agentGreeting } from '../../dialogue/spoken/agent-lines.js';
import { BOOKING_LINES, booked, offerTimes, readBack } from '../../dialogue/language/booking-lines.js';
import type { BookingDesk } from '../../dialogue/agent/booking-desk.js';
import { bookingReplier } from '../doubles/ollama/booking-replier.js';
import { fakeSlots, FakeBookingDesk } from '../helpers/fake-booking-desk.js';
import { waitUntil } from '../helpers/wait.js';
import { askAgent, hearsAgent } from './agent-caller.js';
import type { SipCall } from './sipp.js';
import { CALLER, realPbxAvailability, startRealPbx, type RealPbx } from './harness.js';

const real = realPbxAvailability();

const TIMES = [
  "Tuesday the 3rd of December at ten o'clock",
  "Tuesday the 3rd of December at eleven o'clock",
  'Tuesday the 3rd of December at twelve noon',
  "Tuesday the 3rd of December at one o'clock",
  "Tuesday the 3rd of December at two o'clock",
  "Tuesday the 3rd of December at three o'clock",
];
const SLOTS = fakeSlots(TIMES);
const KB = 'Q: What are your opening hours?\nA: We are open from eight in the morning to six in the evening, Monday to Friday.';
const GOODBYE = 'Thank you for calling. Goodbye.';
/** Quiet after a line before the caller speaks: under load a line arrives with gaps, and a caller who speaks into one barges in. */
const QUIET_MS = 1500;
const lines = (transcription: string | null) => transcription!.split('\n').map((l) => l.replace(/ \[interrupted\]$/, ''));
/** The offered slot with these words, as the fake desk offered it. */
const slot = (i: number) => ({ id: 'x', serviceId: 1, serviceName: 'boiler service', start: SLOTS[i]!.start, end: SLOTS[i]!.start, spoken: TIMES[i]! });

describe.skipIf(!real.ok)('the agent books callers into the diary, on a real Asterisk', { timeout: 300_000 }, () => {
  let h: RealPbx;
  /** Each test's business has its own fake diary. */
  const desks = new Map<number, BookingDesk>();
  beforeAll(async () => {
    // The voicemail offer later than its 8 s default: a loaded machine must not turn a slow turn into a stall.
    h = await startRealPbx({ agent: true, env: { AGENT_VOICEMAIL_AFTER_MS: '30000' }, bookingDesk: (ownerId) => desks.get(ownerId)! });
    h.ollama.replier = bookingReplier('A caller asked for a booking.');
  });
  afterAll(async () => {
    await h?.close();
  });

  async function business(): Promise<{ did: string; desk: FakeBookingDesk }> {
    const { did, userId } = await h.business({ businessName: 'Hale Plumbing', aiMode: 'agent', knowledgeBase: KB });
    const desk = new FakeBookingDesk({ slots: SLOTS });
    desks.set(userId, desk);
    return { did, desk };
  }

  it('a caller books: three times offered, the one they said taken, name and number read back, then booked', async () => {
    const { did, desk } = await business();
    const call = await h.call(did);
    await hearsAgent(h, call, 0, agentGreeting('Hale Plumbing'), QUIET_MS);

    const ask = await askAgent(h, call, 'I would like to book a boiler service on Tuesday morning.');
    const offers = offerTimes([slot(0), slot(1), slot(2)]);
    await hearsAgent(h, call, ask.endedAt, offers, QUIET_MS);
    const pick = await askAgent(h, call, "Eleven o'clock please.");
    await hearsAgent(h, call, pick.endedAt, BOOKING_LINES.askName, QUIET_MS);
    const name = await askAgent(h, call, 'My name is Sam Jones.');
    const back = readBack(slot(1), 'Sam Jones', CALLER);
    await hearsAgent(h, call, name.endedAt, back, QUIET_MS);
    expect(desk.bookRequests).toEqual([]); // nothing booked before the caller agreed

    const yes = await askAgent(h, call, 'Yes please.');
    const done = booked(slot(1));
    await hearsAgent(h, call, yes.endedAt, done, QUIET_MS);
    const bye = await askAgent(h, call, 'No thank you, goodbye.');
    await hearsAgent(h, call, bye.endedAt, GOODBYE, 20);
    expect((await call.done).exitCode).toBe(0);

    const row = await h.finishedRow(did, 60_000);
    expect(desk.bookings).toMatchObject([{ spoken: TIMES[1], callerName: 'Sam Jones', callerNumber: CALLER, status: 'booked' }]);
    expect(desk.bookRequests).toMatchObject([{ callId: row.id, callerName: 'Sam Jones', callerNumber: CALLER }]);
    expect(desk.offers).toMatchObject([{ wish: 'I would like to book a boiler service on Tuesday morning.' }]);
    expect(lines(row.transcription).slice(1)).toEqual([
      'Caller: I would like to book a boiler service on Tuesday morning.',
      `Agent: ${offers}`,
      "Caller: Eleven o'clock please.",
      `Agent: ${BOOKING_LINES.askName}`,
      'Caller: My name is Sam Jones.',
      `Agent: ${back}`,
      'Caller: Yes please.',
      `Agent: ${done}`,
      'Caller: No thank you, goodbye.',
      `Agent: ${GOODBYE}`,
    ]);
  });

  it('a caller who refuses every offered time leaves a booking request, and their message is kept', async () => {
    const { did, desk } = await business();
    const call = await h.call(did);
    await hearsAgent(h, call, 0, agentGreeting('Hale Plumbing'), QUIET_MS);
    const ask = await askAgent(h, call, 'Can I book a boiler service please?');
    await hearsAgent(h, call, ask.endedAt, offerTimes([slot(0), slot(1), slot(2)]), QUIET_MS);
    const later = await askAgent(h, call, 'Have you got anything later?');
    await hearsAgent(h, call, later.endedAt, offerTimes([slot(3), slot(4), slot(5)]), QUIET_MS);
    const none = await askAgent(h, call, 'None of those work for me, sorry.');
    await hearsAgent(h, call, none.endedAt, `${BOOKING_LINES.request} ${BOOKING_LINES.requestDetails}`, QUIET_MS);
    const message = 'This is Sam Jones, any evening next week would suit me.';
    const msg = await askAgent(h, call, message);
    await hearsAgent(h, call, msg.endedAt, AGENT_LINES.messageTaken, QUIET_MS);
    await call.hangUp();

    const row = await h.finishedRow(did, 60_000);
    expect(desk.bookRequests).toEqual([]);
    expect(desk.requests).toEqual([
      { callId: row.id, callerName: '', callerNumber: CALLER, wish: 'Can I book a boiler service please? Have you got anything later? None of those work for me, sorry.', why: 'no-suitable-time' },
    ]);
    expect(lines(row.transcription)).toContain(`Caller: ${message}`);
  });

  it('the diary stops answering mid-call: the holding phrase, then a booking request; the message is kept', async () => {
    const { did, desk } = await business();
    const call = await h.call(did);
    await hearsAgent(h, call, 0, agentGreeting('Hale Plumbing'), QUIET_MS);
    desk.delayMs = 600_000; // the diary hangs: longer than any test waits
    const ask = await askAgent(h, call, 'Can I book a boiler service on Tuesday morning?');
    // The diary's bound (1.5 s) starts after the model's reply, itself after the turn's
    // end-of-turn silence: the holding phrase's bound (1.2 s from the end of speech) comes first.
    const held = await hearsAgent(h, call, ask.endedAt, AGENT_LINES.holding, 20);
    await hearsAgent(h, call, held, `${BOOKING_LINES.request} ${BOOKING_LINES.requestDetails}`, QUIET_MS);
    const message = 'This is Sam Jones, please ring me about a boiler service next week.';
    const msg = await askAgent(h, call, message);
    await hearsAgent(h, call, msg.endedAt, AGENT_LINES.messageTaken, QUIET_MS);
    await call.hangUp();

    const row = await h.finishedRow(did, 60_000);
    expect(row).toMatchObject({ status: 'answered', agentStalled: false });
    expect(desk.requests).toEqual([{ callId: row.id, callerName: '', callerNumber: CALLER, wish: 'Can I book a boiler service on Tuesday morning?', why: 'diary-unavailable' }]);
    expect(lines(row.transcription).slice(1)).toEqual([
      'Caller: Can I book a boiler service on Tuesday morning?',
      `Agent: ${BOOKING_LINES.request} ${BOOKING_LINES.requestDetails}`,
      `Caller: ${message}`,
      `Agent: ${AGENT_LINES.messageTaken}`,
    ]);
  });

  it('two callers take the same time at the same moment: one is booked, the other hears it was taken and the next free times', async () => {
    const { did, desk } = await business();
    const numbers = ['+447700900111', '+447700900222'] as const;
    const batch = await h.calls(numbers.map((from) => ({ did, from })));
    const calls = batch.calls as [SipCall, SipCall];
    await Promise.all(calls.map((c) => hearsAgent(h, c, 0, agentGreeting('Hale Plumbing'), QUIET_MS)));
    // Both say the same words together (the Whisper double hears one transcript at a time).
    const bothSay = async (text: string, hear: (i: number) => string) => {
      const asked = await Promise.all(calls.map((c) => askAgent(h, c, text)));
      await Promise.all(calls.map((c, i) => hearsAgent(h, c, asked[i]!.endedAt, hear(i), QUIET_MS)));
    };
    await bothSay('I would like to book a boiler service on Tuesday.', () => offerTimes([slot(0), slot(1), slot(2)]));
    await bothSay("Ten o'clock please.", () => BOOKING_LINES.askName);
    await bothSay('My name is Sam Jones.', (i) => readBack(slot(0), 'Sam Jones', numbers[i]!));

    const yes = await Promise.all(calls.map((c) => askAgent(h, c, 'Yes please.')));
    await waitUntil(() => expect(desk.bookRequests).toHaveLength(2), 60_000);
    expect(desk.bookings).toMatchObject([{ spoken: TIMES[0], callerName: 'Sam Jones', status: 'booked' }]);
    const won = numbers.indexOf(desk.bookings[0]!.callerNumber as (typeof numbers)[number]);
    const lost = 1 - won;
    await hearsAgent(h, calls[won]!, yes[won]!.endedAt, booked(slot(0)), QUIET_MS);
    const told = await hearsAgent(h, calls[lost]!, yes[lost]!.endedAt, BOOKING_LINES.taken, 20);
    await hearsAgent(h, calls[lost]!, told, offerTimes([slot(1), slot(2), slot(3)]), QUIET_MS);
    await Promise.all(calls.map((c) => c.hangUp()));
    expect(desk.bookings).toHaveLength(1);
    expect(desk.requests).toEqual([]);
  });
});
