import { describe, expect, it } from 'vitest';
import type { CallTeam, CallTeamMember } from './call-team.js';
import { callRecipients, OWNER_ONLY } from './recipients.js';

const OWNER_PHONE = '+447700900222';
const member = (id: number, name: string, phone: string | null, isOwner = false): CallTeamMember =>
  ({ id, name, otherNames: [], roleWord: null, isOwner, working: true, phone });
const owner = member(1, 'Owner', '+447700900333', true);
const sarah = member(2, 'Sarah', '+447700900444');
const tom = member(3, 'Tom', '+447700900555');
const noPhone = member(4, 'Priya', null);
const team = (t: Partial<Pick<CallTeam, 'onCallId' | 'copyOwner'>> = {}) => ({ members: [owner, sarah, tom, noPhone], onCallId: null, copyOwner: false, ...t });
const normal = (staffId: number | null) => ({ staffId, urgent: false });

describe('who is texted about a call (issue 58, item 6)', () => {
  it('a call for a member goes to their confirmed phone instead of the owner', () => {
    expect(callRecipients(normal(2), team(), OWNER_PHONE)).toEqual({ members: [{ staffId: 2, name: 'Sarah', phone: '+447700900444' }], owner: null });
  });

  it('copies the owner, naming the member, when the owner asked to be copied on everything', () => {
    expect(callRecipients(normal(2), team({ copyOwner: true }), OWNER_PHONE)).toEqual({
      members: [{ staffId: 2, name: 'Sarah', phone: '+447700900444' }],
      owner: { forName: 'Sarah' },
    });
  });

  it('leaves a member without a confirmed phone, a removed member and the owner\'s own calls with the owner', () => {
    expect(callRecipients(normal(4), team(), OWNER_PHONE)).toEqual({ members: [], owner: { forName: 'Priya' } });
    expect(callRecipients(normal(99), team(), OWNER_PHONE)).toEqual(OWNER_ONLY);
    expect(callRecipients(normal(1), team(), OWNER_PHONE)).toEqual(OWNER_ONLY);
    expect(callRecipients(normal(null), team({ copyOwner: true, onCallId: 3 }), OWNER_PHONE)).toEqual(OWNER_ONLY);
  });

  it('an urgent call goes to the day\'s on-call member and always to the owner', () => {
    expect(callRecipients({ staffId: null, urgent: true }, team({ onCallId: 3 }), OWNER_PHONE)).toEqual({
      members: [{ staffId: 3, name: 'Tom', phone: '+447700900555' }],
      owner: { forName: null },
    });
    expect(callRecipients({ staffId: 2, urgent: true }, team({ onCallId: 3 }), OWNER_PHONE)).toEqual({
      members: [{ staffId: 2, name: 'Sarah', phone: '+447700900444' }, { staffId: 3, name: 'Tom', phone: '+447700900555' }],
      owner: { forName: 'Sarah' },
    });
  });

  it('texts nobody twice: the on-call member whose call it is, or a member on the owner\'s own number', () => {
    expect(callRecipients({ staffId: 3, urgent: true }, team({ onCallId: 3 }), OWNER_PHONE).members).toEqual([{ staffId: 3, name: 'Tom', phone: '+447700900555' }]);
    expect(callRecipients(normal(2), team(), '+447700900444')).toEqual({ members: [], owner: { forName: 'Sarah' } });
  });

  it('an urgent call with nobody on call, the owner on call, or an on-call member without a phone: the owner alone', () => {
    expect(callRecipients({ staffId: null, urgent: true }, team(), OWNER_PHONE)).toEqual(OWNER_ONLY);
    expect(callRecipients({ staffId: null, urgent: true }, team({ onCallId: 1 }), OWNER_PHONE)).toEqual(OWNER_ONLY);
    expect(callRecipients({ staffId: null, urgent: true }, team({ onCallId: 4 }), OWNER_PHONE)).toEqual(OWNER_ONLY);
  });

  it('a call for a member on a landline (rung, but no texts) goes to the owner, saying whose message it is', () => {
    const desk = member(5, 'Sarah', '+442079460000');
    const withDesk = (t: Partial<Pick<CallTeam, 'onCallId' | 'copyOwner'>> = {}) => ({ ...team(t), members: [owner, desk, tom] });
    expect(callRecipients(normal(5), withDesk(), OWNER_PHONE)).toEqual({ members: [], owner: { forName: 'Sarah (landline)' } });
    expect(callRecipients(normal(5), withDesk({ copyOwner: true }), OWNER_PHONE)).toEqual({ members: [], owner: { forName: 'Sarah (landline)' } });
    // On call on a landline: the urgent text is the owner's alone, as it always goes to them.
    expect(callRecipients({ staffId: null, urgent: true }, withDesk({ onCallId: 5 }), OWNER_PHONE)).toEqual(OWNER_ONLY);
    expect(callRecipients({ staffId: 5, urgent: true }, withDesk({ onCallId: 3 }), OWNER_PHONE)).toEqual({
      members: [{ staffId: 3, name: 'Tom', phone: '+447700900555' }],
      owner: { forName: 'Sarah (landline)' },
    });
  });
});
