import { describe, expect, it } from 'vitest';
import { normaliseWords } from './normalise.js';
import { align, wordErrorRate } from './wer.js';

const w = (s: string) => s.split(' ').filter(Boolean);

describe('word error rate', () => {
  it('is 0 for the same words', () => {
    expect(wordErrorRate(w('the boiler has stopped'), w('the boiler has stopped'))).toBe(0);
  });

  it('counts a substitution, a deletion and an insertion over the reference length', () => {
    expect(wordErrorRate(w('the boiler has stopped'), w('the boiler was stopped'))).toBe(1 / 4);
    expect(wordErrorRate(w('the boiler has stopped'), w('the boiler stopped'))).toBe(1 / 4);
    expect(wordErrorRate(w('the boiler has stopped'), w('the old boiler has stopped'))).toBe(1 / 4);
    expect(wordErrorRate(w('a b c d'), w('x y'))).toBe(1);
  });

  it('can exceed 1 when the engine adds more words than were said', () => {
    expect(wordErrorRate(w('yes'), w('no no no'))).toBe(3);
  });

  it('is not fooled by how a number is written once both sides are normalised', () => {
    const ref = normaliseWords('my number is oh seven seven double oh nine double oh one two three');
    expect(wordErrorRate(ref, normaliseWords('My number is 07700 900123.'))).toBe(0);
    // One wrong digit makes the whole number wrong: a call-back number is right or useless.
    const a = align(ref, normaliseWords('My number is 07700 900124.'));
    expect(a.substitutions).toBe(1);
    expect(a.matched).toEqual([true, true, true, false]);
  });

  it('marks which reference words were matched', () => {
    expect(align(w('call sarah jones back'), w('call sara jones back')).matched).toEqual([true, false, true, true]);
  });
});
