import { describe, expect, it } from 'vitest';
import { BOILER_SERVICE, fakeSlots, FakeBookingDesk } from '../../test/helpers/fake-booking-desk.js';
import { BOOKING_LINES, bookingSpeech } from '../language/booking-lines.js';
import { BookingWalk, MAX_OFFER_ROUNDS } from './booking-walk.js';

// A booking, turn by turn, against the fake diary: what the caller hears and what the desk is asked.

const TIMES = [
  'Tuesday the 3rd of December at ten o\'clock',
  'Tuesday the 3rd of December at eleven o\'clock',
  'Tuesday the 3rd of December at twelve noon',
  'Tuesday the 3rd of December at one o\'clock',
  'Tuesday the 3rd of December at two o\'clock',
  'Tuesday the 3rd of December at three o\'clock',
  'Tuesday the 3rd of December at four o\'clock',
];
const CALLER = '+447700900555';

function setup(opts: { callerId?: string | null; services?: (typeof BOILER_SERVICE)[]; boundMs?: number } = {}) {
  const desk = new FakeBookingDesk({ slots: fakeSlots(TIMES), services: opts.services });
  const walk = new BookingWalk({ desk, services: opts.services ?? [BOILER_SERVICE], callId: 7, callerId: opts.callerId === undefined ? CALLER : opts.callerId, boundMs: opts.boundMs });
  return { desk, walk };
}

describe('BookingWalk', () => {
  it('speaks in the language the agent answers in this turn: a caller who switched to Polish hears the offer and read-back in Polish', async () => {
    const { desk, walk } = setup();
    const pl = bookingSpeech('pl');
    const t1 = await walk.turn(undefined, 'Chciałbym umówić serwis kotła we wtorek.', undefined, 'pl');
    const slots = fakeSlots(TIMES).slice(0, 3).map((s) => ({ ...s, serviceName: 'boiler service' }));
    expect(t1.say).toEqual([pl.offerTimes(slots)]);
    expect(t1.say[0]).toBe('Mogę zaproponować wtorek, 3 grudnia 10:00, wtorek, 3 grudnia 11:00 lub wtorek, 3 grudnia 12:00. Który termin odpowiada?');
    // The model's step stays English (instructions), with the ids it may answer with.
    expect(walk.promptStep()).toContain(`s1 = ${TIMES[0]}`);
    expect((await walk.turn({ choice: 's1' }, 'Dziesiąta.', undefined, 'pl')).say).toEqual([pl.lines.askName]);
    const back = await walk.turn({ name: 'Sam Jones' }, 'Sam Jones.', undefined, 'pl');
    expect(back.say).toEqual([pl.readBack(slots[0]!, 'Sam Jones', CALLER)]);
    const done = await walk.turn({ yes: true }, 'Tak.', undefined, 'pl');
    expect(done).toEqual({ say: [pl.booked(slots[0]!)], ended: 'booked' });
    expect(desk.bookings).toHaveLength(1);
  });

  it('offers three times, books the one the caller took by its id, after reading it back', async () => {
    const { desk, walk } = setup();
    const t1 = await walk.turn(undefined, 'Can I book a boiler service on Tuesday morning?');
    expect(t1.say).toEqual([`I can do ${TIMES[0]}, ${TIMES[1]}, or ${TIMES[2]}. Which would suit you?`]);
    expect(desk.offers).toEqual([{ serviceId: 1, wish: 'Can I book a boiler service on Tuesday morning?' }]);
    // The model is shown ids, never asked for a time.
    expect(walk.promptStep()).toContain(`s2 = ${TIMES[1]}`);

    const t2 = await walk.turn({ choice: 's2' }, 'Eleven please.');
    expect(t2.say).toEqual([BOOKING_LINES.askName]);
    const t3 = await walk.turn({ name: 'Sam Jones' }, 'Sam Jones.');
    expect(t3.say).toEqual([`So that's ${TIMES[1]}, boiler service, for Sam Jones, on 0 7 7 0 0, 9 0 0, 5 5 5. Shall I book that?`]);
    expect(desk.bookRequests).toEqual([]); // nothing booked before the caller says yes

    const t4 = await walk.turn({ yes: true }, 'Yes please.');
    expect(t4).toEqual({ say: [`You're booked in for ${TIMES[1]}, boiler service. Is there anything else I can help with?`], ended: 'booked' });
    expect(desk.bookings).toMatchObject([{ callerName: 'Sam Jones', callerNumber: CALLER, spoken: TIMES[1], status: 'booked' }]);
    expect(desk.bookRequests[0]).toMatchObject({ callId: 7, callerName: 'Sam Jones', callerNumber: CALLER });
    expect(walk.active).toBe(false);
  });

  it('never books an id it did not offer: an invented id or a time is asked again', async () => {
    const { desk, walk } = setup();
    await walk.turn(undefined, 'Book me in for Tuesday.');
    for (const choice of ['s4', 's0', 'tuesday at 10', 'x']) {
      const t = await walk.turn({ choice }, 'The one at ten past nine.');
      expect(t.say[0]).toBe(BOOKING_LINES.whichTime);
      expect(walk.at).toBe('choose');
    }
    // The desk's own ids are not what the model is shown either.
    const t = await walk.turn({ choice: 'nonsense-id' }, 'that one');
    expect(t.say[0]).toBe(BOOKING_LINES.whichTime);
    expect(desk.bookRequests).toEqual([]);
  });

  it('a withheld caller is asked for a number, and hears its digits read back in groups', async () => {
    const { desk, walk } = setup({ callerId: 'anonymous' });
    await walk.turn(undefined, 'Can I book a service?');
    await walk.turn({ choice: 's1', name: 'Jo Bloggs' }, 'Ten o clock, I am Jo Bloggs.');
    expect(walk.at).toBe('number');
    const bad = await walk.turn({ number: '12' }, 'one two');
    expect(bad.say).toEqual([BOOKING_LINES.badNumber]);
    const t = await walk.turn({ number: '07700 900123' }, 'oh seven seven oh oh nine oh oh one two three');
    expect(t.say).toEqual([`So that's ${TIMES[0]}, boiler service, for Jo Bloggs, on 0 7 7 0 0, 9 0 0, 1 2 3. Shall I book that?`]);
    await walk.turn({ yes: true }, 'Yes.');
    expect(desk.bookings[0]).toMatchObject({ callerNumber: '+447700900123', callerName: 'Jo Bloggs' });
  });

  it('"other" asks the desk again after the latest time offered, with the caller\'s new words', async () => {
    const { desk, walk } = setup();
    await walk.turn(undefined, 'Tuesday please.');
    const t = await walk.turn({ choice: 'other' }, 'Anything later?');
    expect(t.say).toEqual([`I can do ${TIMES[3]}, ${TIMES[4]}, or ${TIMES[5]}. Which would suit you?`]);
    expect(desk.offers[1]).toEqual({ serviceId: 1, wish: 'Anything later?', after: fakeSlots(TIMES)[2]!.start });
  });

  it('a caller who refuses every offered time leaves a booking request', async () => {
    const { desk, walk } = setup();
    await walk.turn(undefined, 'Tuesday please.');
    let t = await walk.turn({ choice: 'other' }, 'Later?');
    for (let round = 2; round < MAX_OFFER_ROUNDS; round++) t = await walk.turn({ choice: 'other' }, 'Later still?');
    t = await walk.turn({ choice: 'other' }, 'None of those, sorry.');
    expect(t).toEqual({ say: [BOOKING_LINES.request, BOOKING_LINES.requestDetails], ended: 'request', takeMessage: true });
    expect(desk.requests).toEqual([{ callId: 7, callerName: '', callerNumber: CALLER, wish: 'Tuesday please. Later? Later still? None of those, sorry.', why: 'no-suitable-time' }]);
    expect(desk.bookRequests).toEqual([]);
  });

  it('"none" leaves a booking request at once', async () => {
    const { desk, walk } = setup();
    await walk.turn(undefined, 'Tuesday please.');
    const t = await walk.turn({ choice: 'none' }, 'None of those work.');
    expect(t.ended).toBe('request');
    expect(desk.requests[0]).toMatchObject({ why: 'no-suitable-time', wish: 'Tuesday please. None of those work.' });
  });

  it('taken: the caller hears the next free times and can take one', async () => {
    const { desk, walk } = setup();
    const other = new BookingWalk({ desk, services: [BOILER_SERVICE], callId: 8, callerId: '+447700900666' });
    await walk.turn(undefined, 'Tuesday please.');
    await other.turn(undefined, 'Tuesday please.');
    for (const w of [walk, other]) {
      await w.turn({ choice: 's1', name: 'A Caller' }, 'Ten.');
    }
    expect((await other.turn({ yes: true }, 'Yes.')).ended).toBe('booked');
    const t = await walk.turn({ yes: true }, 'Yes.');
    expect(t.say).toEqual([BOOKING_LINES.taken, `I can do ${TIMES[1]}, ${TIMES[2]}, or ${TIMES[3]}. Which would suit you?`]);
    expect(walk.at).toBe('choose');
    await walk.turn({ choice: 's1' }, 'Eleven then.');
    expect((await walk.turn({ yes: true }, 'Yes.')).ended).toBe('booked');
    expect(desk.bookings.map((b) => b.spoken)).toEqual([TIMES[0], TIMES[1]]);
  });

  it('the diary unavailable: "I\'ll ask them to confirm a time with you", a request is left, nothing booked', async () => {
    const { desk, walk } = setup();
    await walk.turn(undefined, 'Tuesday please.');
    await walk.turn({ choice: 's1', name: 'Sam Jones' }, 'Ten.');
    desk.unavailable = true;
    const t = await walk.turn({ yes: true }, 'Yes.');
    expect(t).toEqual({ say: [BOOKING_LINES.request, BOOKING_LINES.requestDetails], ended: 'request', takeMessage: true });
    expect(desk.requests).toEqual([{ callId: 7, callerName: 'Sam Jones', callerNumber: CALLER, wish: 'Tuesday please.', why: 'diary-unavailable' }]);
  });

  it('a diary slower than the bound is unavailable too', async () => {
    const { desk, walk } = setup({ boundMs: 30 });
    desk.delayMs = 60_000;
    const t = await walk.turn(undefined, 'Can I book a service?');
    expect(t.ended).toBe('request');
    expect(desk.requests[0]).toMatchObject({ why: 'diary-unavailable' });
  });

  it('a caller who rings again can cancel their booking, found by their number', async () => {
    const { desk, walk } = setup();
    await walk.turn(undefined, 'Tuesday please.');
    await walk.turn({ choice: 's1', name: 'Sam Jones' }, 'Ten.');
    await walk.turn({ yes: true }, 'Yes.');
    const again = new BookingWalk({ desk, services: [BOILER_SERVICE], callId: 9, callerId: CALLER });
    const t1 = await again.turn(undefined, 'I need to cancel my appointment.');
    expect(t1.say).toEqual([`I can see you're booked in for ${TIMES[0]}, boiler service. Would you like to keep it, move it, or cancel it?`]);
    const t2 = await again.turn({ choice: 'cancel' }, 'Cancel it please.');
    expect(t2).toEqual({ say: [`That's cancelled: ${TIMES[0]}, boiler service. Is there anything else I can help with?`], ended: 'cancelled' });
    expect(desk.bookings[0]!.status).toBe('cancelled');
  });

  it('a caller who rings again can move their booking to an offered time', async () => {
    const { desk, walk } = setup();
    await walk.turn(undefined, 'Tuesday please.');
    await walk.turn({ choice: 's1', name: 'Sam Jones' }, 'Ten.');
    await walk.turn({ yes: true }, 'Yes.');
    const again = new BookingWalk({ desk, services: [BOILER_SERVICE], callId: 9, callerId: CALLER });
    await again.turn(undefined, 'Can I move my appointment?');
    const t = await again.turn({ choice: 'move' }, 'Move it to the afternoon please.');
    expect(t.say).toEqual([`I can do ${TIMES[1]}, ${TIMES[2]}, or ${TIMES[3]}. Which would suit you?`]);
    const rb = await again.turn({ choice: 's3' }, 'One o clock.');
    expect(rb.say[0]).toContain(`${TIMES[3]}, boiler service, for Sam Jones`); // the name is the booking's
    expect(await again.turn({ yes: true }, 'Yes.')).toMatchObject({ ended: 'moved' });
    expect(desk.bookings.map((b) => [b.spoken, b.status])).toEqual([
      [TIMES[0], 'cancelled'],
      [TIMES[3], 'booked'],
    ]);
  });

  it('with several services, asks which first, by the ids it was shown', async () => {
    const gas = { id: 2, name: 'gas safety check', durationMinutes: 30, agentSentence: null };
    const { desk, walk } = setup({ services: [BOILER_SERVICE, gas] });
    const t1 = await walk.turn(undefined, 'Can I book something?');
    expect(t1.say).toEqual(['Which would you like to book: boiler service, or gas safety check?']);
    expect(walk.promptStep()).toContain('v2 = gas safety check');
    const t2 = await walk.turn({ choice: 'v2' }, 'The gas check.');
    expect(t2.say[0]).toMatch(/^I can do /);
    expect(desk.offers[0]).toMatchObject({ serviceId: 2 });
  });
});
