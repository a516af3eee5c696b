import { describe, expect, it } from 'vitest';
import { nameMatches } from './names.js';

describe('name matching', () => {
  it('finds the whole name whatever its case and punctuation', () => {
    expect(nameMatches('Sarah Jones', 'SARAH JONES called about her boiler.')).toBe(true);
    expect(nameMatches("Niamh O'Brien", 'Niamh OBrien wants a call back')).toBe(true);
    expect(nameMatches("Niamh O'Brien", 'Niamh O Brien wants a call back')).toBe(true);
    expect(nameMatches('Zoë Clarke', 'Zoe Clarke rang')).toBe(true);
    expect(nameMatches('Mary-Jane Hughes', 'Mary Jane Hughes rang')).toBe(true);
  });

  it('needs every part of the name: a surname left out or misspelt is a miss', () => {
    expect(nameMatches('Sarah Jones', 'Sarah called about her boiler')).toBe(false);
    expect(nameMatches('Siobhan Kelly', 'Shivaun Kelly called')).toBe(false);
    expect(nameMatches('Sarah Jones', 'A caller left a message')).toBe(false);
  });

  it('does not take part of a longer word as the name', () => {
    expect(nameMatches('Ann', 'Joanne called about the annual service')).toBe(false);
  });
});
