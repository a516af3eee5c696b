import { describe, expect, it } from 'vitest';
import { teamMember } from '../../test/helpers/team-members.js';
import type { RoutingRule } from '../../contract/team.js';
import { fixedLines } from '../language/fixed-lines.js';
import type { AgentReply } from './agent-reply.js';
import type { ResponderEvent } from './agent-responder.js';
import { answerTurn, type AgentAnswer } from './agent-turn.js';
import type { CallRouting } from './person-routing.js';
import type { TeamMemberView } from './team-view.js';
import { GAS_SAFETY_LINES } from '../spoken/safety-line.js';
import { initialTurnState, turnPolicy, type TurnAction, type TurnContext } from './turn-policy.js';

// Issue 58 turn by turn: a caller asking for a team member, and the owner's routing rules,
// as the actions the policy returns (pbx/flows/agent runs them; test/pbx-real proves the calls).

const EN = fixedLines('en');
const owner = teamMember(1, 'Owner');
const sarah = teamMember(2, 'Sarah', { otherNames: ['Sal'], roleWord: 'stylist' });
const tom = teamMember(3, 'Tom', { roleWord: 'engineer' });
const offSarah = { ...sarah, working: false };

const routing = (over: Partial<CallRouting> = {}, members = [owner, sarah, tom], rules: RoutingRule[] = [], onCallId: number | null = null): CallRouting => ({
  team: { members, rules, onCallId },
  knownCaller: false,
  closed: false,
  canRing: true,
  ...over,
});
const ctx = (r: CallRouting | undefined, over: Partial<TurnContext> = {}): TurnContext => ({
  businessName: 'Acme',
  handlesGas: false,
  canTransfer: true,
  canBook: true,
  lines: EN,
  ...(r && { routing: r }),
  ...over,
});

/** The committed turn's words, then its 'respond': what the policy does with them. */
function turn(c: TurnContext, words: string) {
  const w = turnPolicy(initialTurnState(), c, { on: 'words', words, short: false });
  return turnPolicy(w.state, c, w.next!);
}

async function answer(reply: Partial<AgentReply>, c: TurnContext): Promise<AgentAnswer> {
  const full: AgentReply = { intent: 'question', answered: false, answer: '', wellFormed: true, ...reply };
  async function* events(): AsyncGenerator<ResponderEvent> {
    yield { type: 'done', reply: full, raw: JSON.stringify(full) };
  }
  return answerTurn(events(), c.businessName, undefined, { canTransfer: c.canTransfer, canBook: c.canBook, fixed: c.lines });
}

const ring = (person: TeamMemberView, reason: unknown) => ({ staffId: person.id, name: person.name, phone: person.phone, reason });
const kinds = (actions: TurnAction[]) => actions.map((a) => a.do);

describe('turn policy: "Can I speak to Sarah?"', () => {
  it('Sarah working now with a phone: rung with the caller’s words, without asking the model, the call hers', () => {
    const step = turn(ctx(routing()), 'Can I speak to Sarah please?');
    const reason = { kind: 'asked', request: { kind: 'person', member: sarah } };
    expect(step.actions).toEqual([
      { do: 'finish-speaking', unheard: { history: [], carryText: 'Can I speak to Sarah please?' } },
      { do: 'attribute', staffId: 2, note: 'Asked for Sarah: the caller hung up while their phone rang' },
      { do: 'put-through', callerWords: 'Can I speak to Sarah please?', person: ring(sarah, reason) },
    ]);
    expect(step.state.history.map((m) => m.role)).toEqual(['user', 'assistant']);
  });

  it('she took the call: the note says put through, and the conversation ends with it', () => {
    const person = ring(sarah, { kind: 'asked', request: { kind: 'person', member: sarah } }) as never;
    expect(turnPolicy(initialTurnState(), ctx(routing()), { on: 'put-through', connected: true, person }).actions).toEqual([
      { do: 'attribute', staffId: 2, note: 'Asked for Sarah: put through' },
      { do: 'end', by: 'transfer' },
    ]);
  });

  it('she did not answer: a message for her', () => {
    const person = ring(sarah, { kind: 'asked', request: { kind: 'person', member: sarah } }) as never;
    const step = turnPolicy(initialTurnState(), ctx(routing()), { on: 'put-through', connected: false, person });
    expect(step.actions).toEqual([
      { do: 'attribute', staffId: 2, note: 'Asked for Sarah: did not answer, message taken for Sarah' },
      { do: 'say', lines: [EN.lines.afterTransfer] },
    ]);
    expect(step.state.mode).toBe('message');
  });

  it('outside her hours: not rung; the caller hears she is not available and leaves a message for her', () => {
    const step = turn(ctx(routing({}, [owner, offSarah, tom])), 'Is Sal there?');
    expect(kinds(step.actions)).toEqual(['say', 'finish-speaking', 'attribute']);
    expect(step.actions[0]).toEqual({ do: 'say', lines: ["I'm afraid Sarah isn't available right now. I can take a message for them: please tell me your name and what it's about."] });
    expect(step.actions[2]).toEqual({ do: 'attribute', staffId: 2, note: 'Asked for Sarah: not working now, message taken for Sarah' });
    expect(step.state.mode).toBe('message');
  });

  it('no outbound line: a message for her, noted why', () => {
    const step = turn(ctx(routing({ canRing: false })), 'put me through to Sarah');
    expect(step.actions.find((a) => a.do === 'attribute')).toEqual({ do: 'attribute', staffId: 2, note: 'Asked for Sarah: cannot be rung (no outbound line), message taken for Sarah' });
  });

  it('by role: the first engineer working with a phone, named in the note', () => {
    const step = turn(ctx(routing()), 'Can I speak to an engineer?');
    expect(step.actions.slice(1)).toEqual([
      { do: 'attribute', staffId: 3, note: 'Asked for an engineer: the caller hung up while Tom\'s phone rang' },
      { do: 'put-through', callerWords: 'Can I speak to an engineer?', person: ring(tom, { kind: 'asked', request: { kind: 'role', roleWord: 'engineer' } }) },
    ]);
  });

  it('a mention, not a request, and a call without a team: the model answers as before', () => {
    expect(kinds(turn(ctx(routing()), "I'm ringing about Sarah's booking").actions)).toEqual(['ask-model']);
    expect(kinds(turn(ctx(undefined), 'Can I speak to Sarah?').actions)).toEqual(['ask-model']);
  });
});

describe('turn policy: the owner’s routing rules', () => {
  const emergency: RoutingRule = { when: 'emergency', then: { kind: 'on-call' } };

  it('an emergency with the rule "emergency → on call": today’s on-call engineer is rung, not the owner', async () => {
    const c = ctx(routing({}, [owner, sarah, tom], [emergency], 3));
    const a = await answer({ intent: 'urgent' }, c);
    const step = turnPolicy(initialTurnState(), c, { on: 'replied', text: "It's an emergency, water everywhere", answer: a });
    expect(kinds(step.actions)).toEqual(['abandon-booking', 'finish-speaking', 'flag-urgent', 'attribute', 'put-through']);
    expect(step.actions.at(-1)).toEqual({ do: 'put-through', callerWords: "It's an emergency, water everywhere", person: ring(tom, { kind: 'rule', when: 'emergency' }) });
    expect(turnPolicy(step.state, c, { on: 'put-through', connected: true, person: ring(tom, { kind: 'rule', when: 'emergency' }) as never }).actions[0]).toEqual({
      do: 'attribute',
      staffId: 3,
      note: 'Emergency: put through to Tom',
    });
  });

  it('the on-call member not working: the urgent message line, a message for them, noted', async () => {
    const c = ctx(routing({}, [owner, sarah, { ...tom, working: false }], [emergency], 3));
    const step = turnPolicy(initialTurnState(), c, { on: 'replied', text: 'Emergency!', answer: await answer({ intent: 'urgent' }, c) });
    expect(step.actions).toContainEqual({ do: 'say', lines: [EN.lines.urgentMessage] });
    expect(step.actions).toContainEqual({ do: 'attribute', staffId: 3, note: 'Emergency: Tom not working now, message taken for Tom' });
    expect(step.state.mode).toBe('message');
  });

  it('no rule fits: the owner is put through as before', async () => {
    const c = ctx(routing({ knownCaller: true }, undefined, [{ when: 'new-enquiry', then: { kind: 'person', staffId: 2 } }]));
    const step = turnPolicy(initialTurnState(), c, { on: 'replied', text: 'Can I speak to someone?', answer: await answer({ intent: 'human' }, c) });
    expect(step.actions.at(-1)).toEqual({ do: 'put-through', callerWords: 'Can I speak to someone?' });
  });

  it('a new enquiry wanting a person: the rule’s person is rung', async () => {
    const c = ctx(routing({ knownCaller: false }, undefined, [{ when: 'new-enquiry', then: { kind: 'person', staffId: 2 } }]));
    const step = turnPolicy(initialTurnState(), c, { on: 'replied', text: 'Can I speak to someone?', answer: await answer({ intent: 'human' }, c) });
    expect(step.actions.at(-1)).toEqual({ do: 'put-through', callerWords: 'Can I speak to someone?', person: ring(sarah, { kind: 'rule', when: 'new-enquiry' }) });
  });

  it('closed, leaving a message: it is for the rule’s person, and nobody is rung', async () => {
    const c = ctx(routing({ closed: true }, undefined, [{ when: 'closed', then: { kind: 'person', staffId: 1 } }]));
    const step = turnPolicy(initialTurnState(), c, { on: 'replied', text: 'I want to leave a message', answer: await answer({ intent: 'message' }, c) });
    expect(step.actions[0]).toEqual({ do: 'attribute', staffId: 1, note: 'Closed: message taken for Owner' });
    expect(kinds(step.actions)).not.toContain('put-through');
    expect(step.state.mode).toBe('message');
  });

  it('booking with its person working: rung; not working: the booking walk goes on, for them', async () => {
    const rule: RoutingRule = { when: 'booking', then: { kind: 'person', staffId: 2 } };
    const working = ctx(routing({}, undefined, [rule]));
    const book = await answer({ intent: 'book' }, working);
    expect(turnPolicy(initialTurnState(), working, { on: 'replied', text: 'I want to book a cut', answer: book }).actions.at(-1)).toMatchObject({ do: 'put-through', person: { staffId: 2 } });
    const off = ctx(routing({}, [owner, offSarah, tom], [rule]));
    expect(turnPolicy(initialTurnState(), off, { on: 'replied', text: 'I want to book a cut', answer: book }).actions).toEqual([
      { do: 'attribute', staffId: 2, note: 'Booking: Sarah not working now, the agent took the booking' },
      { do: 'walk-booking', text: 'I want to book a cut', answer: book },
    ]);
  });
});

describe('turn policy: a gas leak follows the emergency rule', () => {
  const emergency: RoutingRule = { when: 'emergency', then: { kind: 'on-call' } };
  const GAS = 'I can smell gas in the kitchen';
  const gasTrade = (r: CallRouting) => ctx(r, { handlesGas: true });

  it('the safety lines once, then today’s on-call engineer is rung with the caller’s words, the model not asked', () => {
    const c = gasTrade(routing({}, [owner, sarah, tom], [emergency], 3));
    const words = turnPolicy(initialTurnState(), c, { on: 'words', words: GAS, short: false });
    expect(words.actions).toEqual([
      { do: 'flag-urgent', reason: 'The caller mentioned a gas smell or leak.' },
      { do: 'say', lines: [...GAS_SAFETY_LINES] },
    ]);
    const step = turnPolicy(words.state, c, words.next!);
    expect(step.actions).toEqual([
      { do: 'abandon-booking' },
      { do: 'finish-speaking', unheard: { history: [], carryText: GAS } },
      { do: 'attribute', staffId: 3, note: "Emergency: the caller hung up while Tom's phone rang" },
      { do: 'put-through', callerWords: GAS, person: ring(tom, { kind: 'rule', when: 'emergency' }) },
    ]);
    expect(JSON.parse(step.state.history.at(-1)!.content)).toMatchObject({ intent: 'urgent' });
    // Put through: Call Details says so, as for a caller who says it is an emergency.
    const done = turnPolicy(step.state, c, { on: 'put-through', connected: true, person: ring(tom, { kind: 'rule', when: 'emergency' }) as never });
    expect(done.actions[0]).toEqual({ do: 'attribute', staffId: 3, note: 'Emergency: put through to Tom' });
  });

  it('the on-call member not working: the urgent message line, a message for them, the safety lines not said again', () => {
    const c = gasTrade(routing({}, [owner, sarah, { ...tom, working: false }], [emergency], 3));
    const words = turnPolicy(initialTurnState(), c, { on: 'words', words: GAS, short: false });
    const step = turnPolicy(words.state, c, words.next!);
    expect(step.actions).toEqual([
      { do: 'abandon-booking' },
      { do: 'say', lines: [EN.lines.urgentMessage] },
      { do: 'finish-speaking', unheard: { history: [], carryText: GAS } },
      { do: 'attribute', staffId: 3, note: 'Emergency: Tom not working now, message taken for Tom' },
    ]);
    expect(step.state.mode).toBe('message');
  });

  it('no fitting emergency rule, or a trade without gas: unchanged, the model answers', () => {
    const noRule = gasTrade(routing({ knownCaller: true }, undefined, [{ when: 'new-enquiry', then: { kind: 'person', staffId: 2 } }]));
    expect(kinds(turn(noRule, GAS).actions)).toEqual(['ask-model']);
    // An on-call rule with nobody on the rota today names no one: passed over.
    expect(kinds(turn(gasTrade(routing({}, undefined, [emergency], null)), GAS).actions)).toEqual(['ask-model']);
    expect(kinds(turn(ctx(routing({}, undefined, [emergency], 3)), GAS).actions)).toEqual(['ask-model']);
  });
});
