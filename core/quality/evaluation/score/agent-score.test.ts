import { describe, expect, it } from 'vitest';
import type { EvalTurn } from '../set.js';
import { factsIn, scoreTurn } from './agent-score.js';

const KB = 'Q: How much is a boiler service?\nA: A boiler service costs £75. We are open Monday to Friday, 8am to 6pm.';
const known = factsIn(KB);
const ask = (over: Partial<EvalTurn>): EvalTurn => ({ caller: 'How much is a boiler service?', expect: 'answer', mustContain: ['£75'], mustNeverSay: [], ...over });

describe('agent turn scoring', () => {
  it('grounded: the answer from the knowledge base, in any written form', () => {
    expect(scoreTurn(ask({}), { intent: 'question', spoken: ['It costs seventy five pounds.'] }, known)).toMatchObject({ outcome: 'grounded', invented: [] });
  });

  it('an invented price is ungrounded and counted as an invented fact', () => {
    const s = scoreTurn(ask({}), { intent: 'question', spoken: ['It costs £75.', 'A new boiler is £1,999.'] }, known);
    expect(s.outcome).toBe('ungrounded');
    expect(s.invented).toEqual(['1999']);
  });

  it('an invented day or time counts too; one the knowledge base gives does not', () => {
    expect(scoreTurn(ask({ mustContain: [] }), { intent: 'question', spoken: ['We can come tomorrow at 3pm.'] }, known).invented).toEqual(['tomorrow', '3']);
    expect(scoreTurn(ask({ mustContain: [] }), { intent: 'question', spoken: ['We open at 8am on Monday.'] }, known).invented).toEqual([]);
  });

  it('refused correctly: nothing spoken for a question the knowledge base does not cover', () => {
    expect(scoreTurn(ask({ expect: 'refuse', mustContain: [] }), { intent: 'question', spoken: [] }, known).outcome).toBe('refused-correctly');
    expect(scoreTurn(ask({ expect: 'refuse', mustContain: [] }), { intent: 'question', spoken: ['Yes, we do that.'] }, known).outcome).toBe('ungrounded');
  });

  it('missed and incomplete: covered but not answered, or answered without the fact', () => {
    expect(scoreTurn(ask({}), { intent: 'question', spoken: [] }, known).outcome).toBe('missed');
    expect(scoreTurn(ask({}), { intent: 'question', spoken: ['We do boiler services.'] }, known)).toMatchObject({ outcome: 'incomplete', missing: ['£75'] });
  });

  it('a phrase the agent must never say makes the turn ungrounded', () => {
    const s = scoreTurn(ask({ expect: 'refuse', mustContain: [], mustNeverSay: ['see you'] }), { intent: 'goodbye', spoken: ['Lovely, see you then.'] }, known);
    expect(s).toMatchObject({ outcome: 'ungrounded', forbidden: ['see you'] });
  });

  it('an intent turn is right when the reply carries that intent', () => {
    expect(scoreTurn(ask({ expect: 'human', mustContain: [] }), { intent: 'human', spoken: [] }, known).outcome).toBe('intent-correct');
    expect(scoreTurn(ask({ expect: 'human', mustContain: [] }), { intent: 'question', spoken: [] }, known).outcome).toBe('intent-wrong');
  });
});
