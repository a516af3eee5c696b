import { describe, expect, it } from 'vitest';
import type { CallTeamMember } from '../../../core/ports/call-path.js';
import { teamRingPlan } from './ring-plan.js';

const member = (id: number, name: string, working: boolean, phone: string | null): CallTeamMember => ({ id, name, otherNames: [], roleWord: null, isOwner: id === 1, working, phone });
const team = [member(1, 'Owner', true, '+447700900001'), member(2, 'Sarah', true, '+447700900002'), member(3, 'Tom', false, '+447700900003'), member(4, 'Priya', true, null), member(5, 'Dan', true, '+447700900005')];

describe('who is rung first, and for how long', () => {
  // The owner's member still under its made-up name "Owner" is noted as "the owner" (contract/member-name.ts).
  it('rings nobody when ring-first is off, or when nobody working now has a confirmed phone', () => {
    expect(teamRingPlan({ members: team, ringFirst: 'off', ringSeconds: 20 })).toEqual([]);
    expect(teamRingPlan({ members: [team[2]!, team[3]!], ringFirst: 'all', ringSeconds: 20 })).toEqual([]);
  });

  it('“all”: every working member with a phone at once, for the whole ring time', () => {
    expect(teamRingPlan({ members: team, ringFirst: 'all', ringSeconds: 20 })).toEqual([
      {
        members: [
          { id: 1, name: 'the owner', phone: '+447700900001' },
          { id: 2, name: 'Sarah', phone: '+447700900002' },
          { id: 5, name: 'Dan', phone: '+447700900005' },
        ],
        seconds: 20,
      },
    ]);
  });

  it('“in order”: one at a time in the team’s order, sharing the ring time', () => {
    expect(teamRingPlan({ members: team, ringFirst: 'in-order', ringSeconds: 30 }).map((r) => [r.members.map((m) => m.name), r.seconds])).toEqual([
      [['the owner'], 10],
      [['Sarah'], 10],
      [['Dan'], 10],
    ]);
  });

  it('“in order” never rings longer than the ring time: each phone at least 5 s, the last ones left out', () => {
    const plan = teamRingPlan({ members: team, ringFirst: 'in-order', ringSeconds: 10 });
    expect(plan.map((r) => [r.members.map((m) => m.name), r.seconds])).toEqual([
      [['the owner'], 5],
      [['Sarah'], 5],
    ]);
    expect(plan.reduce((s, r) => s + r.seconds, 0)).toBeLessThanOrEqual(10);
  });
});
