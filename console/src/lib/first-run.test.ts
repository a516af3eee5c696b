import { describe, expect, it } from 'vitest';
import { firstRunSteps, showFirstRun, textsLandline } from './first-run';

const done = (s: Parameters<typeof firstRunSteps>[0]) => firstRunSteps(s).filter((x) => x.done).map((x) => x.id);

describe('first-run checklist', () => {
  it('ticks nothing for a new owner', () => {
    expect(done({ textsConfirmed: false, hasNumber: false, hasCalls: false, aiMode: 'voicemail', callGreeting: null })).toEqual([]);
  });
  it('ticks each step from real state', () => {
    expect(done({ textsConfirmed: true, hasNumber: false, hasCalls: false, aiMode: 'voicemail', callGreeting: null })).toEqual(['texts']);
    expect(done({ textsConfirmed: false, hasNumber: true, hasCalls: false, aiMode: 'voicemail', callGreeting: '  ' })).toEqual(['number']);
    expect(done({ textsConfirmed: false, hasNumber: true, hasCalls: false, aiMode: 'agent', callGreeting: null })).toEqual(['number', 'mode']);
    expect(done({ textsConfirmed: false, hasNumber: true, hasCalls: false, aiMode: 'voicemail', callGreeting: 'Hi, you reached Sam.' })).toEqual(['number', 'mode']);
    expect(done({ textsConfirmed: true, hasNumber: true, hasCalls: true, aiMode: 'agent', callGreeting: null })).toEqual(['texts', 'number', 'forwarding', 'call-from-phone', 'mode']);
  });
});

describe('when the checklist shows', () => {
  it('only before the first call, and never while the line is not answering', () => {
    expect(showFirstRun({ hasCalls: false, lineNotAnswering: false })).toBe(true);
    expect(showFirstRun({ hasCalls: true, lineNotAnswering: false })).toBe(false);
    expect(showFirstRun({ hasCalls: false, lineNotAnswering: true })).toBe(false);
  });
});

describe('an owner who signed up with a landline (issue 57 item 6)', () => {
  it('is asked for a mobile while the landline is all texts have to go to', () => {
    expect(textsLandline({ phoneNumber: '020 7946 0311', notificationNumber: null }, false)).toBe('020 7946 0311');
    expect(firstRunSteps({ textsConfirmed: false, textsOnLandline: true, hasNumber: false, hasCalls: false, aiMode: 'voicemail', callGreeting: null })[0]!.label).toBe('Add a mobile for call texts');
  });
  it('is not, once a mobile is saved or waits for its code, nor when the sign-up phone is a mobile', () => {
    expect(textsLandline({ phoneNumber: '020 7946 0311', notificationNumber: '+447700900123' }, false)).toBeNull();
    expect(textsLandline({ phoneNumber: '020 7946 0311', notificationNumber: null }, true)).toBeNull();
    expect(textsLandline({ phoneNumber: '07700 900311', notificationNumber: null }, false)).toBeNull();
    expect(firstRunSteps({ textsConfirmed: false, hasNumber: false, hasCalls: false, aiMode: 'voicemail', callGreeting: null })[0]!.label).toBe('Confirm your number for call texts');
  });
});

describe('"Add your team" (issue 58)', () => {
  const base = { textsConfirmed: true, hasNumber: true, hasCalls: false, aiMode: 'agent' as const, callGreeting: null };
  const ids = (s: Parameters<typeof firstRunSteps>[0]) => firstRunSteps(s).map((x) => x.id);

  it('is a step only for a business that said it has more than one person', () => {
    expect(ids({ ...base, teamSize: 3 })).toContain('team');
    expect(ids({ ...base, teamSize: 1 })).not.toContain('team');
    expect(ids({ ...base, teamSize: null })).not.toContain('team');
    expect(ids(base)).not.toContain('team');
  });

  it('is done once the team has someone besides the owner', () => {
    expect(done({ ...base, teamSize: 3, hasTeam: false })).not.toContain('team');
    expect(done({ ...base, teamSize: 3, hasTeam: true })).toContain('team');
  });
});
