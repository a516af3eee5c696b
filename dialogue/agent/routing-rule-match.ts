import type { RoutingRule, RoutingTarget, RoutingWhen } from '../../contract/team.js';
import type { TeamMemberView, TeamView } from './team-view.js';

// The owner's routing rules (team settings, at most 10), checked in their order: the first
// whose moment fits the call names who the caller is for. Pure: the facts come from the core
// (whether the number was in touch before, whether the business is closed) and from the turn.

/** What is known of the call when the agent is about to reach a person or take a message. */
export interface RoutingFacts {
  /** The agent flags the call urgent (the caller says it is an emergency). */
  urgent: boolean;
  /** The caller wants to book. */
  booking: boolean;
  /** Whether the number called, texted or booked before this call; null when it could not be told. */
  knownCaller: boolean | null;
  /** Outside the business's opening hours. */
  closed: boolean;
}

function fits(when: RoutingWhen, f: RoutingFacts): boolean {
  switch (when) {
    case 'emergency':
      return f.urgent;
    case 'booking':
      return f.booking;
    case 'new-enquiry':
      return f.knownCaller === false;
    case 'existing-caller':
      return f.knownCaller === true;
    case 'closed':
      return f.closed;
  }
}

/** Who a request or a rule reaches, and whether they can be rung now. */
export type Reached =
  | { member: TeamMemberView; reachable: true }
  | { member: TeamMemberView; reachable: false; why: 'not-working' | 'no-phone' };

/** Whether `member` can be rung now: working, with a confirmed phone. */
export function reachOf(member: TeamMemberView): Reached {
  if (!member.working) return { member, reachable: false, why: 'not-working' };
  if (!member.phone) return { member, reachable: false, why: 'no-phone' };
  return { member, reachable: true };
}

const sameWord = (a: string | null, b: string) => a !== null && a.trim().toLowerCase() === b.trim().toLowerCase();

/**
 * Someone of a role: the first (in the team's order) working now with a phone; when nobody
 * is, the first of that role, whom the message is for. Null when no member has the role.
 */
export function memberOfRole(team: TeamView, roleWord: string): Reached | null {
  const ofRole = team.members.filter((m) => sameWord(m.roleWord, roleWord));
  const ready = ofRole.find((m) => m.working && m.phone);
  const chosen = ready ?? ofRole[0];
  return chosen ? reachOf(chosen) : null;
}

/** Whom a rule's target names today; null when nobody (no on-call member today, a role nobody has, someone removed). */
export function targetOf(target: RoutingTarget, team: TeamView): Reached | null {
  switch (target.kind) {
    case 'person': {
      const m = team.members.find((x) => x.id === target.staffId);
      return m ? reachOf(m) : null;
    }
    case 'on-call': {
      const m = team.onCallId === null ? undefined : team.members.find((x) => x.id === team.onCallId);
      return m ? reachOf(m) : null;
    }
    case 'role':
      return memberOfRole(team, target.roleWord);
  }
}

export interface RuleMatch {
  rule: RoutingRule;
  target: Reached;
}

/**
 * The first rule that fits the call and names someone today. A rule whose target is nobody
 * today (no on-call member on the rota for today) is passed over, so the next rule or the
 * usual handling applies rather than a message for no one.
 */
export function matchRoutingRule(team: TeamView, facts: RoutingFacts): RuleMatch | null {
  for (const rule of team.rules) {
    if (!fits(rule.when, facts)) continue;
    const target = targetOf(rule.then, team);
    if (target) return { rule, target };
  }
  return null;
}
