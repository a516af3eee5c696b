import { describe, expect, it } from 'vitest';
import { personAskedFor, roleAskedFor } from './person-asked.js';

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

describe('the role a caller asks to be booked in with', () => {
  const salon = [
    { id: 1, name: 'Owner', otherNames: [], roleWord: null },
    { id: 2, name: 'Sarah', otherNames: [], roleWord: 'Stylist' },
    { id: 3, name: 'Amy', otherNames: [], roleWord: 'stylist' },
    { id: 4, name: 'Jo', otherNames: [], roleWord: 'office manager' },
  ];
  const role = (text: string, teamRoles: string[] = ['colourist', 'manager']) => {
    const r = roleAskedFor(text, salon, teamRoles);
    return r && { roleWord: r.roleWord, ids: r.people.map((p) => p.id) };
  };

  it('is a team role word, singular or plural, whole words, any case: everyone doing the service who has it', () => {
    expect(role('Can you book me in with a stylist on Tuesday?')).toEqual({ roleWord: 'Stylist', ids: [2, 3] });
    expect(role('one of your STYLISTS, whoever is first')).toEqual({ roleWord: 'Stylist', ids: [2, 3] });
    expect(role('the office manager please')).toEqual({ roleWord: 'office manager', ids: [4] });
  });

  it('a role of the team nobody doing the service has: named, with nobody', () => {
    expect(role('with a colourist')).toEqual({ roleWord: 'colourist', ids: [] });
    expect(role('a manager, please')).toEqual({ roleWord: 'manager', ids: [] });
  });

  it('is none for a word inside another, a word no member has, or two roles', () => {
    expect(role('my stylistic preferences')).toBeUndefined();
    expect(role('with a plumber')).toBeUndefined();
    expect(role('a stylist or a colourist')).toBeUndefined();
    expect(role('anyone, as soon as possible')).toBeUndefined();
  });
});
