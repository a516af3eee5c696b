import { describe, expect, it } from 'vitest';
import { NEW_MEMBER, checkHours, staffLimitRefusal, validateMember } from './validate-member.js';

const sarah = { name: 'Sarah Jones', otherNames: ['Sal'] };

describe('validateMember', () => {
  it('keeps a new member with trimmed names, other names each once, a role word and hours', () => {
    const got = validateMember(
      { name: '  Tom  Baker ', otherNames: ['Tommy', 'tommy', ' ', 'Tom baker'], roleWord: ' engineer ', hours: { mon: [{ open: '13:00', close: '17:00' }, { open: '08:00', close: '12:00' }] } },
      NEW_MEMBER,
      [sarah],
    );
    expect(got).toEqual({
      name: 'Tom Baker',
      otherNames: ['Tommy'],
      roleWord: 'engineer',
      hours: { mon: [{ open: '08:00', close: '12:00' }, { open: '13:00', close: '17:00' }], tue: [], wed: [], thu: [], fri: [], sat: [], sun: [] },
      view: 'own',
    });
  });

  it('refuses an empty or over-long name, and more than five other names', () => {
    expect(validateMember({ name: '   ' }, NEW_MEMBER, [])).toEqual({ field: 'name', message: 'Give a name of 1 to 60 characters.' });
    expect(validateMember({ name: 'x'.repeat(61) }, NEW_MEMBER, [])).toEqual({ field: 'name', message: 'Give a name of 1 to 60 characters.' });
    expect(validateMember({ name: 'Tom', otherNames: ['a', 'b', 'c', 'd', 'e', 'f'] }, NEW_MEMBER, [])).toEqual({ field: 'otherNames', message: 'Give at most 5 other names.' });
    expect(validateMember({ name: 'Tom', otherNames: ['y'.repeat(61)] }, NEW_MEMBER, [])).toEqual({ field: 'otherNames', message: 'Each other name is at most 60 characters.' });
  });

  it('refuses a name or other name another current member has, in any case, naming the clash', () => {
    expect(validateMember({ name: 'sarah jones' }, NEW_MEMBER, [sarah])).toEqual({
      field: 'name',
      message: '"Sarah Jones" is already a name of Sarah Jones on your team: give each person names nobody else on the team uses, so a caller asking for them reaches the right one.',
    });
    expect(validateMember({ name: 'Sally', otherNames: ['SAL'] }, NEW_MEMBER, [sarah])).toMatchObject({ field: 'otherNames', message: expect.stringMatching(/^"Sal" is already a name of Sarah Jones/) });
  });

  it('refuses a role word over 40 characters; a blank one is none', () => {
    expect(validateMember({ name: 'Tom', roleWord: 'r'.repeat(41) }, NEW_MEMBER, [])).toEqual({ field: 'roleWord', message: 'A role word is at most 40 characters, e.g. engineer.' });
    expect(validateMember({ name: 'Tom', roleWord: '  ' }, NEW_MEMBER, [])).toMatchObject({ roleWord: null });
  });

  it('keeps what an edit leaves out', () => {
    const current = { name: 'Tom', otherNames: ['Tommy'], roleWord: 'stylist', hours: null, view: 'everything' as const };
    expect(validateMember({ roleWord: 'senior stylist' }, current, [sarah])).toEqual({ ...current, roleWord: 'senior stylist' });
  });
});

describe('checkHours', () => {
  it('refuses overlapping spans on one day with call handling’s sentence', () => {
    expect(checkHours({ tue: [{ open: '09:00', close: '12:00' }, { open: '11:30', close: '15:00' }] })).toEqual({
      field: 'hours.tue',
      message: 'Tuesday: 09:00–12:00 and 11:30–15:00 overlap.',
    });
  });
  it('takes null as the business’s opening hours', () => {
    expect(checkHours(null)).toBeNull();
  });
});

describe('staffLimitRefusal', () => {
  it('refuses one more past the box’s maximum, naming it', () => {
    expect(staffLimitRefusal(19, 20)).toBeNull();
    expect(staffLimitRefusal(20, 20)).toEqual({ field: 'name', message: 'Your team can have at most 20 people besides you.' });
    expect(staffLimitRefusal(3, 3)?.message).toBe('Your team can have at most 3 people besides you.');
  });
});
