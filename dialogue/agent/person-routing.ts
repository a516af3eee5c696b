import { spokenNameOf } from '../../contract/member-name.js';
import type { PersonRequest } from './ask-for-person.js';
import { matchRoutingRule, memberOfRole, reachOf, type Reached, type RoutingFacts } from './routing-rule-match.js';
import { routingNote, type RouteReason } from './routing-note.js';
import type { TeamView } from './team-view.js';

// Where a turn's caller goes when the team decides it (issue 58): the person they asked for,
// or the one the owner's first fitting rule names; rung when they can be, otherwise a message
// for them. Pure; turn-policy.ts turns the decision into actions.

/** The team and what the rules need of the call, read when the call began. */
export interface CallRouting {
  team: TeamView;
  knownCaller: boolean | null;
  closed: boolean;
  /** The flow can ring a member's phone (an outbound trunk is set). */
  canRing: boolean;
}

/** A member being rung: who, on which phone, and why (for the notes written after). */
export interface PersonToRing {
  staffId: number;
  name: string;
  phone: string;
  reason: RouteReason;
}

export type RouteDecision =
  | { ring: PersonToRing; note: string }
  | { message: { staffId: number; name: string; note: string } };

/** Ring them if they can be rung now, otherwise a message for them, with the note for Call Details. */
export function decideRoute(reason: RouteReason, reached: Reached, canRing: boolean): RouteDecision {
  const { member } = reached;
  // The name the caller hears ("I'm afraid the owner isn't available") and the notes say.
  const name = spokenNameOf(member);
  if (reached.reachable && canRing) {
    return { ring: { staffId: member.id, name, phone: member.phone!, reason }, note: routingNote(reason, name, { is: 'ringing' }) };
  }
  const unreached = reached.reachable ? 'no-line' : reached.why;
  return { message: { staffId: member.id, name, note: routingNote(reason, name, { is: 'message', unreached }) } };
}

/** A caller's request: the person, or for a role the first of it who can be rung. */
export function routeRequest(request: PersonRequest, routing: CallRouting): RouteDecision | null {
  const reached = request.kind === 'person' ? reachOf(request.member) : memberOfRole(routing.team, request.roleWord);
  return reached ? decideRoute({ kind: 'asked', request }, reached, routing.canRing) : null;
}

/** The owner's first rule that fits this moment of the call, with whom it reaches; null when none does. */
export function ruleFor(routing: CallRouting, moment: Pick<RoutingFacts, 'urgent' | 'booking'>) {
  const match = matchRoutingRule(routing.team, { ...moment, knownCaller: routing.knownCaller, closed: routing.closed });
  if (!match) return null;
  // The target's name as spoken: turn-policy.ts writes a rule's notes from target.member.name.
  const target = { ...match.target, member: { ...match.target.member, name: spokenNameOf(match.target.member) } };
  return { reason: { kind: 'rule', when: match.rule.when } as const, target };
}

/** The note once the rung member's phone has done what it did. */
export function afterRinging(person: PersonToRing, connected: boolean): string {
  return routingNote(person.reason, person.name, connected ? { is: 'put-through' } : { is: 'message', unreached: 'did-not-answer' });
}
