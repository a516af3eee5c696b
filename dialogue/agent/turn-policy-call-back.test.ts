import { describe, expect, it } from 'vitest';
import { fixedLines } from '../language/fixed-lines.js';
import { initialTurnState, turnPolicy, type TurnContext } from './turn-policy.js';

// Issue 56: a caller's "ring me back after four" goes to the call-back desk, not the model, when
// the owner lets the agent ring back; the desk's sentence is said verbatim.

const ctx = (over: Partial<TurnContext> = {}): TurnContext => ({ businessName: 'Acme Plumbing', handlesGas: false, canTransfer: false, canBook: false, lines: fixedLines('en'), ...over });
const LINE = "I'll ring you back at 4pm today from this number.";

describe('turn policy: a caller asks to be rung back', () => {
  it('with the agent ringing back, the words go to the call-back desk and the model is not asked', () => {
    const step = turnPolicy(initialTurnState(), ctx({ canRingBack: true }), { on: 'respond', text: 'could you ring me back after four', languageAsked: false });
    expect(step.actions).toEqual([{ do: 'agree-call-back', text: 'could you ring me back after four' }]);
  });

  it("with the owner ringing back (no desk), the model answers as before", () => {
    const step = turnPolicy(initialTurnState(), ctx(), { on: 'respond', text: 'could you ring me back after four', languageAsked: false });
    expect(step.actions).toEqual([{ do: 'ask-model', history: [], callerText: 'could you ring me back after four' }]);
  });

  it('other words still go to the model', () => {
    const step = turnPolicy(initialTurnState(), ctx({ canRingBack: true }), { on: 'respond', text: 'what time do you open', languageAsked: false });
    expect(step.actions[0]).toMatchObject({ do: 'ask-model' });
  });

  it("the desk's sentence is said verbatim, and the model sees it as its answer next turn", () => {
    const step = turnPolicy(initialTurnState(), ctx({ canRingBack: true }), { on: 'call-back-agreed', text: 'ring me back after four', line: LINE });
    expect(step.actions).toEqual([{ do: 'abandon-booking' }, { do: 'say', lines: [LINE], kind: 'call-back' }]);
    expect(step.state.history).toEqual([
      { role: 'user', content: 'ring me back after four' },
      { role: 'assistant', content: JSON.stringify({ intent: 'question', answered: true, answer: LINE }) },
    ]);
    expect(step.state.carryText).toBe('');
  });
});
