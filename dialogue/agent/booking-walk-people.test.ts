import { describe, expect, it } from 'vitest';
import { fakeSlots, FakeBookingDesk } from '../../test/helpers/fake-booking-desk.js';
import { bookingSpeech } from '../language/booking-lines.js';
import { BookingWalk } from './booking-walk.js';

// Booking with a person (issue 58): "with Tom" asks the desk for Tom's times; "anyone" hears the
// soonest across the team, each time with its person; the read-back and the booked line name them.

const TIMES = ["Tuesday the 3rd of December at ten o'clock", "Tuesday the 3rd of December at eleven o'clock", 'Tuesday the 3rd of December at twelve noon', "Tuesday the 3rd of December at one o'clock"];
const CALLER = '+447700900555';
const TOM = 2;
const SARAH = 3;

function setup() {
  // 10:00 and 12:00 are Sarah's; 11:00 and 13:00 Tom's.
  const slots = fakeSlots(TIMES).map((s, i) => ({ ...s, staffId: i % 2 === 0 ? SARAH : TOM }));
  const desk = new FakeBookingDesk({ slots, people: [{ id: TOM, name: 'Tom', otherNames: ['Tommy'] }, { id: SARAH, name: 'Sarah', otherNames: [] }] });
  const walk = new BookingWalk({ desk, services: [{ id: 1, name: 'boiler service', durationMinutes: 60, agentSentence: null }], callId: 7, callerId: CALLER });
  return { desk, walk };
}

describe('BookingWalk with a team', () => {
  it('"book me in with Tom on Tuesday" offers Tom\'s times, named, and books him', async () => {
    const { desk, walk } = setup();
    const t1 = await walk.turn(undefined, 'Can you book me in with Tom on Tuesday?');
    expect(desk.offers).toEqual([{ serviceId: 1, wish: 'Can you book me in with Tom on Tuesday?', staffId: TOM }]);
    expect(t1.say).toEqual([`Tom can do ${TIMES[1]}, or ${TIMES[3]}. Which would suit you?`]);
    await walk.turn({ choice: 's1' }, 'Eleven.');
    const back = await walk.turn({ name: 'Kim' }, 'Kim.');
    expect(back.say).toEqual([`So that's ${TIMES[1]}, boiler service, with Tom, for Kim, on 0 7 7 0 0, 9 0 0, 5 5 5. Shall I book that?`]);
    const done = await walk.turn({ yes: true }, 'Yes.');
    expect(done).toEqual({ say: [`You're booked in for ${TIMES[1]}, boiler service, with Tom. Is there anything else I can help with?`], ended: 'booked' });
  });

  it('"anyone" hears the soonest times across the team, each with its person; a later "with Tommy" asks for Tom', async () => {
    const { desk, walk } = setup();
    const t1 = await walk.turn(undefined, 'A boiler service, anyone is fine.');
    expect(desk.offers[0]!.staffId).toBeUndefined();
    expect(t1.say).toEqual([`Sarah can do ${TIMES[0]}. Tom can do ${TIMES[1]}. Sarah can do ${TIMES[2]}. Which would suit you?`]);
    await walk.turn({ choice: 'other' }, 'Actually, is Tommy free?');
    expect(desk.offers[1]!.staffId).toBe(TOM);
  });

  it('says the person in the caller\'s language', () => {
    const slot = { start: new Date(Date.UTC(2030, 11, 3, 10)), spoken: TIMES[0]!, staffName: 'Tom', serviceName: 'boiler service' };
    expect(bookingSpeech('pl').offerTimes([slot])).toBe('Tom ma wolny termin: wtorek, 3 grudnia 10:00. Który termin odpowiada?');
    expect(bookingSpeech('es').booked(slot)).toContain(', con Tom');
  });
});
