// The team (issue 58): a business's staff, how calls reach them and what their own sign-in sees.
// What the database stores as JSON is declared once in contract/schemas/team.ts; the types here
// are derived from it. docs/team.md says what each part does.
import type { Static } from 'typebox';
import type { ApiTeamMemberSchema, ApiTeamSettingsSchema, OnCallRotaSchema, RoutingRuleSchema, RoutingTargetSchema, TeamResponse } from './schemas/team.js';

/**
 * The moments a routing rule can name, in the words the Team page shows:
 * emergency: the caller says it is an emergency (the agent's urgent flag);
 * new-enquiry: a number that has never called, texted or booked with the business;
 * existing-caller: one that has; booking: the caller wants to book; closed: outside opening hours.
 */
export const ROUTING_WHENS = ['emergency', 'new-enquiry', 'existing-caller', 'booking', 'closed'] as const;
export type RoutingWhen = (typeof ROUTING_WHENS)[number];

export type RoutingTarget = Static<typeof RoutingTargetSchema>;
export type RoutingRule = Static<typeof RoutingRuleSchema>;
export type OnCallRota = Static<typeof OnCallRotaSchema>;

export const TEAM_LIMITS = {
  /** Staff besides the owner, by default (TEAM_MAX_STAFF sets the box's own). */
  defaultMaxStaff: 20,
  rules: 10,
  otherNames: 5,
  nameLength: 60,
  ringSecondsMin: 10,
  ringSecondsMax: 60,
  roleWordLength: 40,
  /** A person's own length for a service (staff_services.duration_minutes). */
  serviceMinutes: { min: 5, max: 480 },
} as const;

/** Which calendar of their own a member has connected (part C connects them). */
export const TEAM_CALENDARS = ['none', 'ical', 'caldav'] as const;
/** A member's own sign-in: none; invited (an e-mail waits for its password); active (they sign in). */
export const TEAM_INVITE_STATES = ['none', 'invited', 'active'] as const;

export type ApiTeamMember = Static<typeof ApiTeamMemberSchema>;
export type ApiTeamSettings = Static<typeof ApiTeamSettingsSchema>;
export type ApiTeamResponse = Static<typeof TeamResponse>;
