import { describe, expect, it } from 'vitest';
import { TEAM_LIMITS } from '../../../contract/rules';
import { type RoutingRule } from '../../../contract/team';
import { canAddRule, clampRingSeconds, columnsByPerson, moveRule, ownLength, parseOtherNames, peopleOf, roleWords, ruleSentence, staffBanner, staffIdParam } from './team';

const team = [
  { id: 1, name: 'Owner' },
  { id: 7, name: 'Sarah' },
];

describe('a routing rule in words', () => {
  it('names the person, the on-call or the role', () => {
    expect(ruleSentence({ when: 'emergency', then: { kind: 'on-call' } }, team)).toBe("When the caller says it is an emergency → ring today's on-call");
    expect(ruleSentence({ when: 'new-enquiry', then: { kind: 'person', staffId: 7 } }, team)).toBe('When the caller is a new enquiry → ring Sarah');
    expect(ruleSentence({ when: 'closed', then: { kind: 'role', roleWord: 'engineer' } }, team)).toBe('When the caller calls when closed → ring anyone who is an engineer');
    expect(ruleSentence({ when: 'booking', then: { kind: 'role', roleWord: 'stylist' } }, team)).toBe('When the caller wants to book → ring anyone who is a stylist');
  });

  it('says when the person has left the team rather than showing an id', () => {
    expect(ruleSentence({ when: 'existing-caller', then: { kind: 'person', staffId: 99 } }, team)).toBe('When the caller has called before → ring someone no longer on your team');
  });
});

describe('the rule list', () => {
  const rule = (i: number): RoutingRule => ({ when: 'emergency', then: { kind: 'person', staffId: i } });

  it('takes up to ten rules', () => {
    expect(canAddRule(Array.from({ length: TEAM_LIMITS.rules - 1 }, (_, i) => rule(i + 1)))).toBe(true);
    expect(canAddRule(Array.from({ length: TEAM_LIMITS.rules }, (_, i) => rule(i + 1)))).toBe(false);
  });

  it('moves a rule up or down, and not past either end', () => {
    expect(moveRule(['a', 'b', 'c'], 2, -1)).toEqual(['a', 'c', 'b']);
    expect(moveRule(['a', 'b', 'c'], 0, 1)).toEqual(['b', 'a', 'c']);
    expect(moveRule(['a', 'b', 'c'], 0, -1)).toEqual(['a', 'b', 'c']);
    expect(moveRule(['a', 'b', 'c'], 2, 1)).toEqual(['a', 'b', 'c']);
  });
});

describe('team fields', () => {
  it('offers each role word once, as first written', () => {
    expect(roleWords([{ roleWord: 'Engineer' }, { roleWord: null }, { roleWord: 'engineer ' }, { roleWord: 'office' }])).toEqual(['Engineer', 'office']);
  });

  it('parts other names at commas', () => {
    expect(parseOtherNames(' Sam, Samantha ,, ')).toEqual(['Sam', 'Samantha']);
  });

  it('keeps ring-first seconds within 10 to 60', () => {
    expect(clampRingSeconds(5)).toBe(10);
    expect(clampRingSeconds(75)).toBe(60);
    expect(clampRingSeconds(25.4)).toBe(25);
    expect(clampRingSeconds(Number.NaN)).toBe(10);
  });

  it('reads an own length as whole minutes, empty as the service\'s', () => {
    expect(ownLength('')).toBeNull();
    expect(ownLength('45')).toBe(45);
    expect(ownLength('0')).toBeNull();
    expect(ownLength('4.5')).toBeNull();
  });

  it('reads the person filter from the address', () => {
    expect(staffIdParam('7')).toBe(7);
    expect(staffIdParam(null)).toBeNull();
    expect(staffIdParam('all')).toBeNull();
    expect(staffIdParam('-2')).toBeNull();
  });

  it("writes the staff banner with the business's name", () => {
    expect(staffBanner('Sarah', 'Smith Plumbing')).toBe('Signed in as Sarah at Smith Plumbing');
    expect(staffBanner('Sarah', null)).toBe('Signed in as Sarah');
  });
});

describe('the day view by person', () => {
  it('gives each member a column, then people who left by name, then bookings with no one', () => {
    const items = [
      { id: 1, staffId: 7, staffName: 'Sarah' },
      { id: 2, staffId: 3, staffName: 'Tom' },
      { id: 3, staffId: null, staffName: null },
      { id: 4, staffId: 3, staffName: 'Tom' },
    ];
    const cols = columnsByPerson(items, team);
    expect(cols.map((c) => [c.name, c.items.map((i) => i.id)])).toEqual([
      ['Owner', []],
      ['Sarah', [1]],
      ['Tom', [2, 4]],
      ['No one', [3]],
    ]);
  });
});

describe('the person filter', () => {
  it('offers each person the list names, once, in order of first appearance', () => {
    expect(peopleOf([{ staffId: 3, staffName: 'Tom' }, { staffId: null }, {}, { staffId: 7, staffName: 'Sarah' }, { staffId: 3, staffName: 'Tom' }])).toEqual([
      { id: 3, name: 'Tom' },
      { id: 7, name: 'Sarah' },
    ]);
  });
});
