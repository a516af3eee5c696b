import type { TeamMemberView } from '../../dialogue/agent/team-view.js';

/** A team member as a call sees them: working now, with a confirmed phone, unless `over` says not. */
export const teamMember = (id: number, name: string, over: Partial<TeamMemberView> = {}): TeamMemberView => ({
  id,
  name,
  otherNames: [],
  roleWord: null,
  isOwner: false,
  working: true,
  phone: `+4477009000${id}0`,
  ...over,
});
