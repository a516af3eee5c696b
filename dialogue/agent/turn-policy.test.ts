import { describe, expect, it } from 'vitest';
import { fixedLines } from '../language/fixed-lines.js';
import { AGENT_LINES } from '../spoken/agent-lines.js';
import { GAS_SAFETY_LINES } from '../spoken/safety-line.js';
import type { AgentReply } from './agent-reply.js';
import type { ResponderEvent } from './agent-responder.js';
import { answerTurn, type AgentAnswer } from './agent-turn.js';
import { asksModel, initialTurnState, turnPolicy, type TurnContext, type TurnPolicyState } from './turn-policy.js';

// The rules of a committed turn, turn by turn, without audio or engines: the state and the
// actions the policy returns for each event the phone feeds it.

const EN = fixedLines('en');
const ctx = (over: Partial<TurnContext> = {}): TurnContext => ({ businessName: 'Acme Plumbing', handlesGas: false, canTransfer: false, canBook: false, lines: EN, ...over });
const state = (over: Partial<TurnPolicyState> = {}): TurnPolicyState => ({ ...initialTurnState(), ...over });

/** The model's reply as the phone assembles it: streamed sentences, then the parsed reply. */
async function answer(reply: Partial<AgentReply>, sentences: string[] = [], c: TurnContext = ctx()): Promise<AgentAnswer> {
  const full: AgentReply = { intent: 'question', answered: true, answer: sentences.join(' '), wellFormed: true, ...reply };
  async function* events(): AsyncGenerator<ResponderEvent> {
    for (const text of sentences) yield { type: 'sentence', text };
    yield { type: 'done', reply: full, raw: JSON.stringify(full) };
  }
  return answerTurn(events(), c.businessName, undefined, { canTransfer: c.canTransfer, canBook: c.canBook, fixed: c.lines });
}

describe('turn policy: the words of a committed turn', () => {
  it('a real turn nobody could make out is asked again; its words (none) change nothing else', () => {
    const step = turnPolicy(state({ carryText: 'I wanted' }), ctx(), { on: 'words', words: '', short: false });
    expect(step.actions).toEqual([{ do: 'say', lines: [AGENT_LINES.didNotCatch] }]);
    expect(step.state.carryText).toBe('I wanted');
    expect(step.next).toBeUndefined();
  });

  it('a short noise with no words, or a turn in message mode, is not asked again', () => {
    expect(turnPolicy(state(), ctx(), { on: 'words', words: '', short: true }).actions).toEqual([]);
    expect(turnPolicy(state({ mode: 'message' }), ctx(), { on: 'words', words: '', short: false }).actions).toEqual([]);
  });

  it("words join those carried from a cancelled turn, are kept until answered, and reset the silence prompts", () => {
    const step = turnPolicy(state({ carryText: 'Hello,', silencePrompts: 1 }), ctx(), { on: 'words', words: 'are you open today?', short: false });
    expect(step.state).toMatchObject({ carryText: 'Hello, are you open today?', silencePrompts: 0 });
    expect(step.actions).toEqual([]);
    expect(step.next).toEqual({ on: 'respond', text: 'Hello, are you open today?', languageAsked: false });
  });
});

describe('turn policy: the gas safety line', () => {
  const gas = ctx({ handlesGas: true });

  it('a gas leak at a trade that handles gas: the call is flagged urgent and the advice said before the answer', () => {
    const step = turnPolicy(state(), gas, { on: 'words', words: 'I can smell gas in the kitchen', short: false });
    expect(step.actions).toEqual([
      { do: 'flag-urgent', reason: 'The caller mentioned a gas smell or leak.' },
      { do: 'say', lines: [...GAS_SAFETY_LINES] },
    ]);
    expect(step.state.safetyGiven).toBe(true);
    expect(step.next).toEqual({ on: 'respond', text: 'I can smell gas in the kitchen', languageAsked: false, gasLeak: true });
  });

  it('once per call', () => {
    const step = turnPolicy(state({ safetyGiven: true }), gas, { on: 'words', words: 'the gas is still leaking', short: false });
    expect(step.actions).toEqual([]);
  });

  it('not for a trade that does not handle gas, nor for words that only mention gas', () => {
    expect(turnPolicy(state(), ctx(), { on: 'words', words: 'I can smell gas', short: false }).actions).toEqual([]);
    expect(turnPolicy(state(), gas, { on: 'words', words: 'Do you fit gas boilers?', short: false }).actions).toEqual([]);
  });
});

describe('turn policy: who answers (the mode)', () => {
  it('a caller asking questions: the model is asked with the history so far and the words', () => {
    const history = [
      { role: 'user' as const, content: 'Hi' },
      { role: 'assistant' as const, content: '{}' },
    ];
    const step = turnPolicy(state({ history, carryText: 'Open?' }), ctx(), { on: 'respond', text: 'Open?', languageAsked: false });
    expect(step.actions).toEqual([{ do: 'ask-model', history, callerText: 'Open?' }]);
    expect(step.state.carryText).toBe('Open?'); // kept until the reply is heard
  });

  it('a caller leaving a message: not answered by the model; thanked, and back to questions', () => {
    const step = turnPolicy(state({ mode: 'message', carryText: 'It is Sam, call me back' }), ctx(), { on: 'respond', text: 'It is Sam, call me back', languageAsked: false });
    expect(step.actions).toEqual([{ do: 'say', lines: [AGENT_LINES.messageTaken], kind: 'message-taken' }]);
    expect(step.state).toMatchObject({ mode: 'normal', carryText: '' });
  });

  it('a caller leaving a voicemail (the engines failed): thanked and the call ends', () => {
    const step = turnPolicy(state({ mode: 'voicemail', carryText: 'my message' }), ctx(), { on: 'respond', text: 'my message', languageAsked: false });
    expect(step.actions).toEqual([{ do: 'close', lines: [AGENT_LINES.voicemailThanks] }]);
    expect(step.state.carryText).toBe('');
  });

  it('the model is asked, speculatively too, only for a caller asking questions', () => {
    expect([asksModel('normal'), asksModel('message'), asksModel('voicemail')]).toEqual([true, false, false]);
  });
});

describe('turn policy: a language asked for', () => {
  const PL = fixedLines('pl');

  it('the caller hears, in it, that they have it (a fixed line, the model not asked); the history shows it answered', () => {
    const words = turnPolicy(state(), ctx({ lines: PL }), { on: 'words', words: 'Czy mówi pan po polsku?', short: false, language: 'asked' });
    expect(words.next).toEqual({ on: 'respond', text: 'Czy mówi pan po polsku?', languageAsked: true });
    const step = turnPolicy(words.state, ctx({ lines: PL }), words.next!);
    expect(step.actions).toEqual([{ do: 'say', lines: [PL.switched], kind: 'language' }]);
    expect(step.state.carryText).toBe('');
    expect(step.state.history).toEqual([
      { role: 'user', content: 'Czy mówi pan po polsku?' },
      { role: 'assistant', content: JSON.stringify({ intent: 'question', answered: true, answer: PL.switched }) },
    ]);
  });

  it('a language detected (not asked for) is answered by the model, in it', () => {
    const words = turnPolicy(state(), ctx({ lines: PL }), { on: 'words', words: 'Jakie są godziny otwarcia?', short: false, language: 'detected' });
    expect(turnPolicy(words.state, ctx({ lines: PL }), words.next!).actions).toEqual([{ do: 'ask-model', history: [], callerText: 'Jakie są godziny otwarcia?' }]);
  });

  it('a caller leaving a message who names a language is still taking a message', () => {
    const step = turnPolicy(state({ mode: 'message' }), ctx(), { on: 'respond', text: 'Polish please', languageAsked: true });
    expect(step.actions).toEqual([{ do: 'say', lines: [AGENT_LINES.messageTaken], kind: 'message-taken' }]);
  });
});

describe("turn policy: the model's reply", () => {
  it('an answer: nothing said beyond the streamed sentences; the turn joins the history once heard, or is undone', async () => {
    const a = await answer({ answered: true }, ['We open at 8am.']);
    const step = turnPolicy(state({ carryText: 'When do you open?' }), ctx(), { on: 'replied', text: 'When do you open?', answer: a });
    expect(step.actions).toEqual([{ do: 'finish-speaking', unheard: { history: [], carryText: 'When do you open?' } }]);
    expect(step.state.carryText).toBe('');
    expect(step.state.history).toEqual([{ role: 'user', content: 'When do you open?' }, a.historyReply]);
  });

  it('a question the knowledge base did not cover: the fixed line, and the question logged for the owner', async () => {
    const a = await answer({ answered: false, answer: 'I am not sure.' });
    const step = turnPolicy(state(), ctx(), { on: 'replied', text: 'Do you do roofs?', answer: a });
    expect(step.actions).toEqual([
      { do: 'say', lines: [AGENT_LINES.notAnswered] },
      { do: 'log-question', question: 'Do you do roofs?', said: AGENT_LINES.notAnswered },
      { do: 'finish-speaking', unheard: { history: [], carryText: 'Do you do roofs?' } },
    ]);
  });
});

describe('turn policy: message mode', () => {
  it('the caller asks to leave a message: asked for it, and their next words are the message', async () => {
    const a = await answer({ intent: 'message', answered: false, answer: '' });
    const step = turnPolicy(state(), ctx(), { on: 'replied', text: 'Can I leave a message?', answer: a });
    expect(step.state.mode).toBe('message');
    expect(step.actions).toEqual([
      { do: 'abandon-booking' },
      { do: 'say', lines: [AGENT_LINES.takeMessage] },
      { do: 'finish-speaking', unheard: { history: [], carryText: 'Can I leave a message?' } },
    ]);
  });

  it('urgent with nobody to put through: the urgent message line, and the call flagged once it was said', async () => {
    const a = await answer({ intent: 'urgent', answered: false, answer: '' });
    const step = turnPolicy(state(), ctx(), { on: 'replied', text: 'Water everywhere, it is urgent', answer: a });
    expect(step.state.mode).toBe('message');
    expect(step.actions.map((x) => x.do)).toEqual(['abandon-booking', 'say', 'finish-speaking', 'flag-urgent']);
    expect(step.actions[1]).toEqual({ do: 'say', lines: [AGENT_LINES.urgentMessage] });
    expect(step.actions[3]).toEqual({ do: 'flag-urgent', reason: 'The caller said it was urgent.' });
  });
});

describe('turn policy: put-through', () => {
  const phone = ctx({ canTransfer: true });

  it('a caller who wants a person, when the owner can be rung: put through with their words, nothing said first', async () => {
    const a = await answer({ intent: 'human', answered: false, answer: '' }, [], phone);
    const step = turnPolicy(state(), phone, { on: 'replied', text: 'Can I speak to Dave?', answer: a });
    expect(step.actions).toEqual([
      { do: 'abandon-booking' },
      { do: 'finish-speaking', unheard: { history: [], carryText: 'Can I speak to Dave?' } },
      { do: 'put-through', callerWords: 'Can I speak to Dave?' },
    ]);
  });

  it('urgent: flagged, then put through', async () => {
    const a = await answer({ intent: 'urgent', answered: false, answer: '' }, [], phone);
    const step = turnPolicy(state(), phone, { on: 'replied', text: 'A pipe burst', answer: a });
    expect(step.actions.slice(-2)).toEqual([
      { do: 'flag-urgent', reason: 'The caller said it was urgent.' },
      { do: 'put-through', callerWords: 'A pipe burst' },
    ]);
  });

  it('the owner took it: the conversation ends with the put-through call', () => {
    expect(turnPolicy(state(), phone, { on: 'put-through', connected: true }).actions).toEqual([{ do: 'end', by: 'transfer' }]);
  });

  it('the owner did not take it: a message is offered and taken', () => {
    const step = turnPolicy(state(), phone, { on: 'put-through', connected: false });
    expect(step.actions).toEqual([{ do: 'say', lines: [AGENT_LINES.afterTransfer] }]);
    expect(step.state.mode).toBe('message');
  });
});

describe('turn policy: booking steps', () => {
  const desk = ctx({ canBook: true });

  it('a "book" reply walks the booking with the reply\'s choice before anything is said', async () => {
    const a = await answer({ intent: 'book', answered: true, answer: '', booking: { choice: 's1' } }, [], desk);
    const step = turnPolicy(state(), desk, { on: 'replied', text: 'Ten o clock please', answer: a });
    expect(step.actions).toEqual([{ do: 'walk-booking', text: 'Ten o clock please', answer: a }]);
    expect(step.state).toEqual(state());
  });

  it("the walk's lines are said, and the model sees them next turn under the book intent", async () => {
    const a = await answer({ intent: 'book', answered: true, answer: '' }, [], desk);
    const say = ['What name shall I put it under?'];
    const step = turnPolicy(state(), desk, { on: 'booked', text: 'Ten please', answer: a, booking: { say } });
    expect(step.actions).toEqual([
      { do: 'say', lines: say },
      { do: 'finish-speaking', unheard: { history: [], carryText: 'Ten please' } },
    ]);
    expect(step.state.history.at(-1)).toEqual({ role: 'assistant', content: JSON.stringify({ intent: 'book', answered: true, answer: say.join(' ') }) });
    expect(step.state.mode).toBe('normal');
  });

  it('a booking that became a request for the owner: the next words are the message', async () => {
    const a = await answer({ intent: 'book', answered: true, answer: '' }, [], desk);
    const step = turnPolicy(state(), desk, { on: 'booked', text: 'Tuesday', answer: a, booking: { say: ['The owner will confirm.'], ended: 'request', takeMessage: true } });
    expect(step.state.mode).toBe('message');
  });

  it('without a diary, "book" is as if the model had not answered', async () => {
    const a = await answer({ intent: 'book', answered: true, answer: '' });
    const step = turnPolicy(state(), ctx(), { on: 'replied', text: 'Book me in', answer: a });
    expect(step.actions[0]).toEqual({ do: 'say', lines: [AGENT_LINES.notAnswered] });
  });
});

describe('turn policy: goodbye', () => {
  it("the model's own goodbye is spoken as streamed, then the call ends", async () => {
    const a = await answer({ intent: 'goodbye', answered: true }, ['Thanks for calling, bye.']);
    const step = turnPolicy(state(), ctx(), { on: 'replied', text: 'That is all, bye', answer: a });
    expect(step.actions).toEqual([
      { do: 'finish-speaking', unheard: { history: [], carryText: 'That is all, bye' } },
      { do: 'end', by: 'agent' },
    ]);
  });

  it('a goodbye without words of its own: the fixed goodbye with the business name', async () => {
    const a = await answer({ intent: 'goodbye', answered: false, answer: '' });
    const step = turnPolicy(state(), ctx(), { on: 'replied', text: 'Bye', answer: a });
    expect(step.actions[0]).toEqual({ do: 'say', lines: ['Thank you for calling Acme Plumbing. Goodbye.'] });
    expect(step.actions.at(-1)).toEqual({ do: 'end', by: 'agent' });
  });
});

describe('turn policy: silence', () => {
  it('the first silence is prompted; the second ends the call', () => {
    const first = turnPolicy(state(), ctx(), { on: 'silence' });
    expect(first.actions).toEqual([{ do: 'prompt', lines: [AGENT_LINES.silencePrompt] }]);
    expect(first.state.silencePrompts).toBe(1);
    expect(turnPolicy(first.state, ctx(), { on: 'silence' }).actions).toEqual([{ do: 'close', lines: [AGENT_LINES.silenceGoodbye] }]);
  });

  it('a caller leaving a voicemail who falls silent is thanked with the goodbye and the call ends', () => {
    expect(turnPolicy(state({ mode: 'voicemail' }), ctx(), { on: 'silence' }).actions).toEqual([{ do: 'close', lines: ['Thank you for calling Acme Plumbing. Goodbye.'] }]);
  });

  it('the call at its longest length is closed the same way', () => {
    expect(turnPolicy(state(), ctx(), { on: 'max-length' }).actions).toEqual([{ do: 'close', lines: [AGENT_LINES.silenceGoodbye] }]);
  });
});

describe('turn policy: stalled and failed engines', () => {
  it('a slow answer hears the holding phrase', () => {
    expect(turnPolicy(state(), ctx(), { on: 'stall', step: 'hold' }).actions).toEqual([{ do: 'hold' }]);
  });

  it('engines stalled on a turn: the call is tagged, the booking dropped, voicemail offered; the next words are the voicemail', () => {
    const step = turnPolicy(state(), ctx(), { on: 'stall', step: 'offer-voicemail' });
    expect(step.actions).toEqual([{ do: 'flag-stalled' }, { do: 'abandon-booking' }, { do: 'offer-voicemail', lines: [AGENT_LINES.engineFailure] }]);
    expect(step.state).toMatchObject({ mode: 'voicemail', engineFailed: true });
  });

  it('a voicemail that could not be transcribed in time: thanked, the call ends (the recording holds it)', () => {
    expect(turnPolicy(state({ mode: 'voicemail' }), ctx(), { on: 'stall', step: 'close' }).actions).toEqual([{ do: 'close', lines: [AGENT_LINES.voicemailThanks] }]);
  });

  it('an engine failure offers voicemail once; after that a voicemail is thanked, and anything else ends the call', () => {
    const first = turnPolicy(state(), ctx(), { on: 'failed', speech: false, closing: false });
    expect(first.actions).toEqual([{ do: 'abandon-booking' }, { do: 'offer-voicemail', lines: [AGENT_LINES.engineFailure] }]);
    expect(turnPolicy(first.state, ctx(), { on: 'failed', speech: false, closing: false }).actions).toEqual([{ do: 'close', lines: [AGENT_LINES.voicemailThanks] }]);
    expect(turnPolicy(first.state, ctx(), { on: 'failed', speech: false, closing: true }).actions).toEqual([{ do: 'end', by: 'agent' }]);
  });

  it('speech synthesis failed: nothing can be said, the call ends for voicemail with Asterisk\'s prompts', () => {
    expect(turnPolicy(state(), ctx(), { on: 'failed', speech: true, closing: false }).actions).toEqual([{ do: 'end', by: 'agent', speechFailed: true }]);
  });
});
