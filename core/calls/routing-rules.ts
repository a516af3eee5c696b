// Who answers a call to a DID, decided from the number's row and its owner. Pure: no I/O.

import type { AccountStatus } from '../../contract/api.js';
import type { AiMode } from '../../contract/api.js';

export type UnavailableReason = Exclude<AccountStatus, 'active'>;

export interface NumberFacts {
  userId: number | null;
  releasedAt: Date | null;
}

export interface OwnerFacts {
  id: number;
  accountStatus: AccountStatus;
  trialExpiresAt: Date | null;
  aiMode: AiMode;
}

export type RouteDecision =
  /** No business behind the number: a polite message, no call row. */
  | { kind: 'not-in-service' }
  /** A real business that cannot take calls now: a polite message and a missed call row. */
  | { kind: 'unavailable'; userId: number; reason: UnavailableReason }
  /** Run the owner's flow. */
  | { kind: 'answer'; userId: number; mode: AiMode };

export function decideRoute(number: NumberFacts | undefined, owner: OwnerFacts | undefined, now: Date): RouteDecision {
  // A released number cannot be recovered (SPEC §4), so it is out of service even if a user id lingers.
  if (!number || number.releasedAt || number.userId === null || !owner) return { kind: 'not-in-service' };
  if (owner.accountStatus !== 'active') return { kind: 'unavailable', userId: owner.id, reason: owner.accountStatus };
  // Housekeeping marks lapsed trials expired every few minutes; a call in that gap is treated the same.
  if (owner.trialExpiresAt && owner.trialExpiresAt.getTime() <= now.getTime()) {
    return { kind: 'unavailable', userId: owner.id, reason: 'expired' };
  }
  return { kind: 'answer', userId: owner.id, mode: owner.aiMode };
}
