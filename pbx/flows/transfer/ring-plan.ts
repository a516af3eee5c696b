import { spokenNameOf } from '../../../contract/member-name.js';
import type { CallTeam, CallTeamMember } from '../../../core/ports/call-path.js';

// "Ring the team first" (issue 58): who is rung before the agent or voicemail answers, and for
// how long. Pure: the team as the call found it is all it needs.

/** The least one phone rings in turn: under it a phone has barely started ringing when it stops. */
const MIN_TURN_SECONDS = 5;

/** A member who can be rung: working now, with a confirmed phone. */
export type RingMember = Pick<CallTeamMember, 'id' | 'name'> & { phone: string };

/** Phones rung together for `seconds`; a plan is its rounds, one after another. */
export interface RingRound {
  members: RingMember[];
  seconds: number;
}

/**
 * The rounds of ringing for this call, or none when the team is not rung first (ring-first
 * 'off') or nobody working now has a confirmed phone. 'all': every phone at once for
 * ringSeconds. 'in-order': one phone at a time in the team's order, sharing ringSeconds
 * equally but each at least MIN_TURN_SECONDS, so the whole ring stays within ringSeconds and
 * phones late in a long list may not be reached: the caller never waits longer than the owner set.
 */
export function teamRingPlan(team: Pick<CallTeam, 'members' | 'ringFirst' | 'ringSeconds'>): RingRound[] {
  if (team.ringFirst === 'off') return [];
  const members = team.members.filter((m): m is CallTeamMember & { phone: string } => m.working && m.phone !== null).map((m) => ({ id: m.id, name: spokenNameOf(m), phone: m.phone }));
  if (members.length === 0) return [];
  if (team.ringFirst === 'all') return [{ members, seconds: team.ringSeconds }];
  const seconds = Math.max(MIN_TURN_SECONDS, Math.floor(team.ringSeconds / members.length));
  const reached = Math.max(1, Math.floor(team.ringSeconds / seconds));
  return members.slice(0, reached).map((m) => ({ members: [m], seconds }));
}
