import type { RoutingRule } from '../../contract/team.js';

// The team as the agent's rules see it during one call: the shape of core's CallTeam
// (core/team/call-team.ts), declared here because dialogue/ does not import core/.

export interface TeamMemberView {
  id: number;
  name: string;
  otherNames: readonly string[];
  roleWord: string | null;
  /** The business's owner: named "the owner" to callers until they give their name (contract/member-name.ts). */
  isOwner: boolean;
  /** Inside their hours now. */
  working: boolean;
  /** Their confirmed phone (E.164), or null: never rung. */
  phone: string | null;
}

export interface TeamView {
  members: readonly TeamMemberView[];
  rules: readonly RoutingRule[];
  onCallId: number | null;
}
