import type { OwnerFacts } from '../calls/routing-rules.js';
import { dialRefusal, type OutboundAllowList } from './dialable.js';

/** What the operator allows the appliance to dial (OUTBOUND_ALLOW, OUTBOUND_DAILY_MINUTES, PUT_THROUGH_MAX_SECONDS). */
export interface OutboundPolicy {
  allow: OutboundAllowList;
  /** Minutes of calls placed to one owner's phones per London day, ring time included. */
  dailyMinutes: number;
  /** The longest a call placed to an owner's phone may last once answered (briefing and talk), in seconds. */
  answeredMaxSeconds: number;
}

export const DEFAULT_OUTBOUND_POLICY: OutboundPolicy = { allow: [], dailyMinutes: 120, answeredMaxSeconds: 1800 };

export type OutboundRefusal =
  | { kind: 'not-dialable'; message: string }
  | { kind: 'inactive'; message: string }
  | { kind: 'daily-cap'; message: string };

const INACTIVE_MESSAGE = 'Putting calls through needs an active account. Please contact support to continue.';

const dailyCapMessage = (minutes: number) =>
  `Today's ${minutes} minutes of calls to your phone are used up: calls go to your messages until midnight. Ask your operator if you need more.`;

/** May the appliance call a number now, and if so for how long once answered. */
export type OutboundPermit = { refusal: OutboundRefusal } | { refusal: null; answeredSeconds: number };

/**
 * May the appliance place a call to `number` for this owner now? Null when it may. Pure:
 * `usedSeconds` is what the owner's calls placed today took, a call still in progress counted
 * as the longest it may last (core/outbound/store.ts).
 */
export function outboundRefusal(o: { owner: Pick<OwnerFacts, 'accountStatus' | 'trialExpiresAt'>; number: string; usedSeconds: number; policy: OutboundPolicy; now: Date }): OutboundRefusal | null {
  // An expired trial keeps signing in to read its messages; it must not run up the trunk.
  const expired = o.owner.trialExpiresAt !== null && o.owner.trialExpiresAt.getTime() <= o.now.getTime();
  if (o.owner.accountStatus !== 'active' || expired) return { kind: 'inactive', message: INACTIVE_MESSAGE };
  const refusal = dialRefusal(o.number, o.policy.allow);
  if (refusal) return { kind: 'not-dialable', message: refusal };
  if (o.usedSeconds >= o.policy.dailyMinutes * 60) return { kind: 'daily-cap', message: dailyCapMessage(o.policy.dailyMinutes) };
  return null;
}

/**
 * The call may be placed (outboundRefusal) and, once answered, may last the put-through limit
 * or what is left of today's minutes, whichever is less: the daily cap holds for a call that
 * starts just under it, not only for the next one.
 */
export function outboundPermit(o: Parameters<typeof outboundRefusal>[0]): OutboundPermit {
  const refusal = outboundRefusal(o);
  if (refusal) return { refusal };
  return { refusal: null, answeredSeconds: Math.min(o.policy.answeredMaxSeconds, o.policy.dailyMinutes * 60 - o.usedSeconds) };
}
