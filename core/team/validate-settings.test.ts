import { describe, expect, it } from 'vitest';
import { DEFAULT_TEAM_SETTINGS, type TeamSettings } from './store.js';
import { removalRefusal, validateTeamSettings } from './validate-settings.js';

const members = [
  { id: 1, name: 'Owner', roleWord: null },
  { id: 2, name: 'Sarah', roleWord: 'stylist' },
  { id: 3, name: 'Tom', roleWord: 'Engineer' },
];
const base: TeamSettings = { ...DEFAULT_TEAM_SETTINGS, rules: [], rota: {} };

describe('validateTeamSettings', () => {
  it('keeps rules and a rota naming current members, and fields left out', () => {
    const got = validateTeamSettings(
      { ringFirst: 'in-order', ringSeconds: 30, rules: [{ when: 'emergency', then: { kind: 'on-call' } }, { when: 'new-enquiry', then: { kind: 'role', roleWord: ' engineer ' } }], rota: { mon: 3, sat: 2 } },
      base,
      members,
    );
    expect(got).toEqual({
      ringFirst: 'in-order',
      ringSeconds: 30,
      copyOwner: false,
      rules: [{ when: 'emergency', then: { kind: 'on-call' } }, { when: 'new-enquiry', then: { kind: 'role', roleWord: 'engineer' } }],
      rota: { mon: 3, sat: 2 },
    });
  });

  it('refuses a rule naming someone not on the team, by its number', () => {
    const rules = [{ when: 'booking' as const, then: { kind: 'person' as const, staffId: 2 } }, { when: 'closed' as const, then: { kind: 'person' as const, staffId: 9 } }];
    expect(validateTeamSettings({ rules }, base, members)).toEqual({ field: 'rules.1', message: 'Rule 2 names someone who is no longer on your team.' });
  });

  it('refuses a rota day naming someone not on the team', () => {
    expect(validateTeamSettings({ rota: { wed: 7 } }, base, members)).toEqual({ field: 'rota.wed', message: 'The on-call rota for Wednesday names someone who is no longer on your team.' });
  });

  it('refuses a role nobody has, more than ten rules, and a ring time outside 10–60 s', () => {
    expect(validateTeamSettings({ rules: [{ when: 'booking', then: { kind: 'role', roleWord: 'plumber' } }] }, base, members)).toMatchObject({ field: 'rules.0', message: expect.stringMatching(/^Rule 1 rings "plumber"/) });
    const eleven = Array.from({ length: 11 }, () => ({ when: 'emergency' as const, then: { kind: 'on-call' as const } }));
    expect(validateTeamSettings({ rules: eleven }, base, members)).toEqual({ field: 'rules', message: 'You can have at most 10 routing rules.' });
    expect(validateTeamSettings({ ringSeconds: 9 }, base, members)).toEqual({ field: 'ringSeconds', message: 'Ring the team for a whole number of seconds from 10 to 60.' });
    expect(validateTeamSettings({ ringSeconds: 61 }, base, members)).toMatchObject({ field: 'ringSeconds' });
  });
});

describe('removalRefusal', () => {
  const settings: TeamSettings = { ...base, rules: [{ when: 'emergency', then: { kind: 'on-call' } }, { when: 'booking', then: { kind: 'person', staffId: 2 } }], rota: { fri: 3 } };
  it('refuses the owner, and anyone a rule or the rota still names', () => {
    expect(removalRefusal({ id: 1, name: 'Owner', isOwner: true }, settings)?.message).toBe('You are the owner: you stay on your team. Remove other people only.');
    expect(removalRefusal({ id: 2, name: 'Sarah', isOwner: false }, settings)).toEqual({ field: 'rules.1', message: 'Rule 2 puts calls through to Sarah: change that rule before removing Sarah.' });
    expect(removalRefusal({ id: 3, name: 'Tom', isOwner: false }, settings)).toEqual({ field: 'rota.fri', message: 'Tom is on call on Friday: change the on-call rota before removing Tom.' });
  });
  it('lets anyone else go', () => {
    expect(removalRefusal({ id: 4, name: 'Amy', isOwner: false }, settings)).toBeNull();
  });
});
