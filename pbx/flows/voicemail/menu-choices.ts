import { spokenNameOf } from '../../../contract/member-name.js';
import type { CallTeam, CallTeamMember } from '../../../core/ports/call-path.js';

// The voicemail greeting's "press 1 for Sarah, 2 for Tom" (issue 58). Pure.

/** Keys 1 to 9: one key per person, so no caller waits for a second digit. */
const MAX_CHOICES = 9;

export interface MenuChoice {
  digit: string;
  member: Pick<CallTeamMember, 'id' | 'name' | 'working'> & { phone: string };
}

/**
 * The menu for this call: every current member with a confirmed phone, in the team's order,
 * numbered from 1, up to 9. None when fewer than two have one: a menu of one person is the
 * business's own number, and a business with no team hears its greeting as before.
 */
export function menuChoices(team: Pick<CallTeam, 'members'>): MenuChoice[] {
  const reachable = team.members.filter((m): m is CallTeamMember & { phone: string } => m.phone !== null);
  if (reachable.length < 2) return [];
  return reachable.slice(0, MAX_CHOICES).map((m, i) => ({ digit: String(i + 1), member: { id: m.id, name: spokenNameOf(m), working: m.working, phone: m.phone } }));
}
