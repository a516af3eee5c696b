import { describe, expect, it } from 'vitest';
import { fakeSlots, FakeBookingDesk } from '../../test/helpers/fake-booking-desk.js';
import { teamMember } from '../../test/helpers/team-members.js';
import { fixedLines } from '../language/fixed-lines.js';
import type { AgentReply } from './agent-reply.js';
import type { ResponderEvent } from './agent-responder.js';
import { answerTurn } from './agent-turn.js';
import { BookingWalk } from './booking-walk.js';
import { initialTurnState, turnPolicy, type TurnContext, type TurnEvent } from './turn-policy.js';

// "Book me in with a stylist" (issue 58): a role word of the team offers the soonest times across
// only the people of that role who do the service, each named; a role nobody doing it has is
// said in one sentence, then the soonest with anyone. Through the walk, and through the real
// turn policy from the caller's words to what they hear.

const TIMES = ['Tuesday at ten', 'Tuesday at eleven', 'Tuesday at twelve', 'Tuesday at one', 'Tuesday at two'];
const CALLER = '+447700900555';
const [TOM, AMY, SARAH, JO] = [2, 3, 4, 5];
const CUT = { id: 1, name: 'cut and finish', durationMinutes: 45, agentSentence: null };

function setup() {
  // 10:00 and 12:00 are Tom's (the barber), 11:00 and 14:00 Amy's, 13:00 Sarah's (stylists).
  const whose = [TOM, AMY, TOM, SARAH, AMY];
  const slots = fakeSlots(TIMES).map((s, i) => ({ ...s, staffId: whose[i] }));
  const people = [
    { id: TOM, name: 'Tom', otherNames: [], roleWord: 'barber' },
    { id: AMY, name: 'Amy', otherNames: [], roleWord: 'stylist' },
    { id: SARAH, name: 'Sarah', otherNames: [], roleWord: 'Stylist' },
  ];
  // Jo the colourist does no cuts.
  const desk = new FakeBookingDesk({ slots, services: [CUT], people, roleWords: ['barber', 'stylist', 'Stylist', 'colourist'] });
  const walk = new BookingWalk({ desk, services: [CUT], callId: 7, callerId: CALLER });
  return { desk, walk };
}

describe('BookingWalk: booking with a role', () => {
  it('"with a stylist": the soonest across the stylists who do it, each time named; then booked with that person', async () => {
    const { desk, walk } = setup();
    const t1 = await walk.turn(undefined, 'Can you book me in with a stylist on Tuesday?');
    expect(desk.offers).toEqual([{ serviceId: 1, wish: 'Can you book me in with a stylist on Tuesday?', staffIds: [AMY, SARAH] }]);
    expect(t1.say).toEqual([`Amy can do ${TIMES[1]}. Sarah can do ${TIMES[3]}. Amy can do ${TIMES[4]}. Which would suit you?`]);
    await walk.turn({ choice: 's2' }, 'One o clock.');
    await walk.turn({ name: 'Kim' }, 'Kim.');
    expect((await walk.turn({ yes: true }, 'Yes.')).say).toEqual([`You're booked in for ${TIMES[3]}, cut and finish, with Sarah. Is there anything else I can help with?`]);
  });

  it('"one of your STYLISTS" plural, any case; "something later?" keeps to the stylists', async () => {
    const { desk, walk } = setup();
    await walk.turn(undefined, 'One of your STYLISTS please');
    await walk.turn({ choice: 'other' }, 'Anything later?');
    expect(desk.offers.map((o) => o.staffIds)).toEqual([[AMY, SARAH], [AMY, SARAH]]);
  });

  it('a role nobody who does the service has: one sentence saying so, then the soonest with anyone', async () => {
    const { desk, walk } = setup();
    const t1 = await walk.turn(undefined, 'Can I book in with a colourist?');
    expect(desk.offers[0]).toEqual({ serviceId: 1, wish: 'Can I book in with a colourist?' });
    expect(t1.say).toEqual([
      'We have no colourist who does that, so here are the soonest times with anyone.',
      `Tom can do ${TIMES[0]}. Amy can do ${TIMES[1]}. Tom can do ${TIMES[2]}. Which would suit you?`,
    ]);
  });

  it('a name wins over a role; a word no member has is anyone', async () => {
    const { desk, walk } = setup();
    await walk.turn(undefined, 'With Sarah, the stylist');
    expect(desk.offers[0]!.staffId).toBe(SARAH);
    expect(desk.offers[0]!.staffIds).toBeUndefined();
    const other = setup();
    await other.walk.turn(undefined, 'With a plumber please');
    expect(other.desk.offers[0]).toEqual({ serviceId: 1, wish: 'With a plumber please' });
  });
});

describe('turn policy: "book me in with a stylist", from the caller’s words to what they hear', () => {
  const EN = fixedLines('en');
  const members = [teamMember(1, 'Owner'), teamMember(TOM, 'Tom', { roleWord: 'barber' }), teamMember(AMY, 'Amy', { roleWord: 'stylist' }), teamMember(SARAH, 'Sarah', { roleWord: 'Stylist' }), teamMember(JO, 'Jo', { roleWord: 'colourist' })];
  const c: TurnContext = {
    businessName: 'Cut Above', handlesGas: false, canTransfer: true, canBook: true, lines: EN,
    routing: { team: { members, rules: [], onCallId: null }, knownCaller: false, closed: false, canRing: true },
  };

  /** One caller turn through the real policy; the model reads it as "book"; the walk answers. What the caller hears. */
  async function callerSays(walk: BookingWalk, words: string): Promise<string[]> {
    const reply: AgentReply = { intent: 'book', answered: true, answer: '', wellFormed: true };
    async function* events(): AsyncGenerator<ResponderEvent> {
      yield { type: 'done', reply, raw: JSON.stringify(reply) };
    }
    const heard: string[] = [];
    let state = initialTurnState();
    let next: TurnEvent | undefined = { on: 'words', words, short: false };
    while (next) {
      const step = turnPolicy(state, c, next);
      state = step.state;
      next = undefined;
      for (const a of step.actions) {
        if (a.do === 'say') heard.push(...a.lines);
        if (a.do === 'put-through') heard.push('(put through)');
        if (a.do === 'ask-model') next = { on: 'replied', text: a.callerText, answer: await answerTurn(events(), c.businessName, undefined, { canTransfer: true, canBook: true, fixed: EN }) };
        if (a.do === 'walk-booking') next = { on: 'booked', text: a.text, answer: a.answer, booking: await walk.turn(a.answer.reply.booking, a.text) };
      }
      next ??= step.next;
    }
    return heard;
  }

  it('offers the stylists’ soonest times, each named, and nobody is rung', async () => {
    const { walk } = setup();
    expect(await callerSays(walk, 'Can you book me in with a stylist on Tuesday?')).toEqual([`Amy can do ${TIMES[1]}. Sarah can do ${TIMES[3]}. Amy can do ${TIMES[4]}. Which would suit you?`]);
  });

  it('a colourist, who does no cuts: said so, then the soonest with anyone', async () => {
    const { walk } = setup();
    expect(await callerSays(walk, "I'd like to book a cut with a colourist")).toEqual([
      'We have no colourist who does that, so here are the soonest times with anyone.',
      `Tom can do ${TIMES[0]}. Amy can do ${TIMES[1]}. Tom can do ${TIMES[2]}. Which would suit you?`,
    ]);
  });
});
