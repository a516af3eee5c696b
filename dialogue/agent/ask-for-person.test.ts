import { describe, expect, it } from 'vitest';
import { teamMember } from '../../test/helpers/team-members.js';
import { askForPerson } from './ask-for-person.js';

const member = teamMember;
const owner = member(1, 'Owner');
const sarah = member(2, 'Sarah Jones', { otherNames: ['Sal'], roleWord: 'stylist' });
const sam = member(3, 'Samantha', { otherNames: ['Sam'], roleWord: 'engineer' });
const tom = member(4, 'Tom', { roleWord: 'Engineer' });
const team = [owner, sarah, sam, tom];

const asked = (words: string) => {
  const r = askForPerson(words, team);
  return r === null ? null : r.kind === 'person' ? r.member.name : `role:${r.roleWord}`;
};

describe('askForPerson: a request for one team member', () => {
  it.each([
    ['Can I speak to Sarah?', 'Sarah Jones'],
    ['can i speak with sarah jones please', 'Sarah Jones'],
    ['Is Sam there?', 'Samantha'],
    ['is Sam in today', 'Samantha'],
    ['Put me through to Samantha.', 'Samantha'],
    ['Could you put me through to Sal', 'Sarah Jones'],
    ["Hi, I'd like to talk to Tom about my quote", 'Tom'],
    ['TOM PLEASE', 'Tom'],
    ['Sarah?', 'Sarah Jones'],
    ['I was looking for Tom', 'Tom'],
    ['Can I have Sarah', 'Sarah Jones'],
    ['Is Sarah available?', 'Sarah Jones'],
    ['Could you connect me with Samantha, please?', 'Samantha'],
    ['I’m after Tom', 'Tom'],
  ])('%s → %s', (words, name) => {
    expect(asked(words)).toBe(name);
  });

  it.each([
    ['Can I speak to an engineer?', 'role:stylist'.replace('stylist', 'engineer')],
    ['a stylist please', 'role:stylist'],
    ['Could I talk to one of your engineers', 'role:engineer'],
    ['put me through to the stylist', 'role:stylist'],
    ['is an engineer around', 'role:engineer'],
    ['Can I get a STYLIST', 'role:stylist'],
  ])('%s → %s (by role)', (words, role) => {
    expect(asked(words)).toBe(role);
  });

  it.each([
    // Mentioned, not asked for (documented in docs/agent.md).
    ["I'm calling about Sarah's booking", null],
    ["Can I speak to Sarah's manager", null],
    ['Sarah fitted my boiler last week', null],
    ['Tom said he would call me back', null],
    // Not a whole name: Samantha's "Sam" is not in "Sammy" or "same".
    ['Can I speak to Sammy', null],
    ['is it the same there', null],
    // Two people, or two roles: not clear whom.
    ['Can I speak to Sarah or Tom', null],
    ['an engineer or a stylist please', null],
    // A role mentioned in passing, not asked for.
    ['The engineer left the tap dripping', null],
    ['Is the engineer coming today?', null],
    // Nothing asked.
    ['What time do you open?', null],
    ['', null],
  ])('%s → no request', (words, expected) => {
    expect(asked(words)).toBe(expected);
  });

  it('a name two members share is no request; the other name still is', () => {
    const twoSams = [...team, member(5, 'Sam Smith')];
    expect(askForPerson('Can I speak to Sam?', twoSams)).toBeNull();
    expect(askForPerson('Can I speak to Samantha?', twoSams)).toEqual({ kind: 'person', member: sam });
  });

  it('a name wins over a role said beside it', () => {
    expect(askForPerson('Can I speak to Tom the engineer', team)).toEqual({ kind: 'person', member: tom });
  });

  it('a name with characters a pattern would read as its own matches only itself', () => {
    const odd = member(6, 'Jo (office)', { otherNames: ['J.O.'] });
    expect(askForPerson('can I speak to Jo office', [odd])).toEqual({ kind: 'person', member: odd });
    expect(askForPerson('can I speak to Jxoffice', [odd])).toBeNull();
  });
});
