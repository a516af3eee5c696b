import { describe, expect, it } from 'vitest';
import { personAskedFor } from './person-asked.js';

const team = [
  { id: 1, name: 'Owner', otherNames: [] },
  { id: 2, name: 'Tom Baker', otherNames: ['Tommy'] },
  { id: 3, name: 'Samantha', otherNames: ['Sam'] },
];
const asked = (text: string) => personAskedFor(text, team)?.id;

describe('the person a caller asks to be booked in with', () => {
  it('is named by any of their names, or their first name, as whole words in any case', () => {
    expect(asked('Can you book me in with Tom on Tuesday?')).toBe(2);
    expect(asked('tommy if he is free')).toBe(2);
    expect(asked('with Tom Baker please')).toBe(2);
    expect(asked("I'd like Sam to do it")).toBe(3);
    expect(asked('SAMANTHA, Thursday morning')).toBe(3);
  });

  it('is nobody for "anyone", a name inside another word, or two people named', () => {
    expect(asked('anyone, as soon as possible')).toBeUndefined();
    expect(asked('tomorrow at ten')).toBeUndefined();
    expect(asked('same time next week')).toBeUndefined();
    expect(asked('Tom or Sam, whoever is free')).toBeUndefined();
  });
});
