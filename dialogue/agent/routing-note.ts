import { spokenNameOf } from '../../contract/member-name.js';
import type { RoutingWhen } from '../../contract/team.js';
import type { PersonRequest } from './ask-for-person.js';

// What routing did with a call, as Call Details shows it (calls.routing_note): "Asked for
// Sarah: not working now, message taken for Sarah", "Emergency: put through to Tom". English
// only: the owner reads it, whatever language the caller spoke.

/** Why the call went to someone: the caller asked for them, or the owner's rule named them. */
export type RouteReason = { kind: 'asked'; request: PersonRequest } | { kind: 'rule'; when: RoutingWhen };

/** Why they could not be put through. */
type Unreached = 'not-working' | 'no-phone' | 'no-line' | 'did-not-answer';

export type NoteOutcome =
  /** Written as their phone starts ringing: it stays only if the caller hangs up meanwhile. */
  | { is: 'ringing' }
  | { is: 'put-through' }
  /** A message for them: after failing to reach them, or the rule for a caller leaving one. */
  | { is: 'message'; unreached?: Unreached }
  /** A booking rule's person could not be reached: the agent's booking walk went on. */
  | { is: 'booking'; unreached: Unreached };

const RULE_LABELS: Record<RoutingWhen, string> = {
  emergency: 'Emergency',
  'new-enquiry': 'New enquiry',
  'existing-caller': 'Existing caller',
  booking: 'Booking',
  closed: 'Closed',
};

const UNREACHED: Record<Unreached, string> = {
  'not-working': 'not working now',
  'no-phone': 'has no confirmed phone',
  'no-line': 'cannot be rung (no outbound line)',
  'did-not-answer': 'did not answer',
};

/** "an engineer", "a stylist". */
export function withArticle(word: string): string {
  return `${/^[aeiou]/i.test(word) ? 'an' : 'a'} ${word}`;
}

/** The note for a call routed to `name` (the member reached, or whom the message is for, as spokenNameOf names them). */
export function routingNote(reason: RouteReason, name: string, outcome: NoteOutcome): string {
  // "Asked for Sarah: put through": her name is said once; a role or a rule names the person.
  const named = reason.kind === 'asked' && reason.request.kind === 'person';
  const prefix =
    reason.kind === 'rule' ? RULE_LABELS[reason.when] : reason.request.kind === 'person' ? `Asked for ${spokenNameOf(reason.request.member)}` : `Asked for ${withArticle(reason.request.roleWord)}`;
  const who = named ? '' : `${name} `;
  const said = (u: Unreached) => `${who}${UNREACHED[u]}`;
  switch (outcome.is) {
    case 'ringing':
      return `${prefix}: the caller hung up while ${named ? 'their' : `${name}'s`} phone rang`;
    case 'put-through':
      return `${prefix}: put through${named ? '' : ` to ${name}`}`;
    case 'message':
      return `${prefix}: ${outcome.unreached ? `${said(outcome.unreached)}, ` : ''}message taken for ${name}`;
    case 'booking':
      return `${prefix}: ${said(outcome.unreached)}, the agent took the booking`;
  }
}
