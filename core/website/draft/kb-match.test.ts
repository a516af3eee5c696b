import { describe, expect, it } from 'vitest';
import { matchKnowledge, ownerEntries, questionOverlap } from './kb-match.js';

const kb = ownerEntries('Q: How much is a boiler service?\nA: A boiler service is £85.\n\nQ: Do you cover Bath?\nA: Yes, we cover Bath and Bristol.');

describe('matchKnowledge', () => {
  it('finds the same question however it is worded', () => {
    expect(questionOverlap('What does a boiler service cost?', 'How much is a boiler service?')).toBe(1);
    expect(questionOverlap('Do you fix taps?', 'How much is a boiler service?')).toBe(0);
  });
  it('does not offer what the owner already says (same question, same facts)', () => {
    expect(matchKnowledge('What does a boiler service cost?', 'It costs 85 pounds.', kb)).toMatchObject({ kind: 'same' });
  });
  it('proposes a change when the site states other facts than the owner wrote', () => {
    expect(matchKnowledge('What does a boiler service cost?', 'A boiler service is £95.', kb)).toEqual({ kind: 'change', entry: { question: 'How much is a boiler service?', answer: 'A boiler service is £85.' } });
  });
  it('is new when the owner has nothing on it', () => {
    expect(matchKnowledge('Do you unblock drains?', 'Yes, from £60.', kb)).toEqual({ kind: 'new' });
  });
});
