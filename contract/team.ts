// The team (issue 58): a business's staff, how calls reach them and what their own sign-in sees.
// What the database stores as JSON is declared once in contract/schemas/team.ts; the types here
// are derived from it; its word lists are in enums.ts (ROUTING_WHENS, …) and its limits in
// rules.ts (TEAM_LIMITS), which the schemas import. docs/team.md says what each part does.
import type { Static } from 'typebox';
import type { ROUTING_WHENS } from './enums.js';
import type { ApiTeamMemberSchema, ApiTeamSettingsSchema, OnCallRotaSchema, RoutingRuleSchema, RoutingTargetSchema, TeamResponse } from './schemas/team.js';

export type RoutingWhen = (typeof ROUTING_WHENS)[number];

export type RoutingTarget = Static<typeof RoutingTargetSchema>;
export type RoutingRule = Static<typeof RoutingRuleSchema>;
export type OnCallRota = Static<typeof OnCallRotaSchema>;

export type ApiTeamMember = Static<typeof ApiTeamMemberSchema>;
export type ApiTeamSettings = Static<typeof ApiTeamSettingsSchema>;
export type ApiTeamResponse = Static<typeof TeamResponse>;
