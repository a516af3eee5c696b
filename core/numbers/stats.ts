// Pure rules behind the admin numbers screen (SPEC.md §2 Telephony Number Management, §3 Number stats).
import type { AccountStatus, ApiNumberStats } from '../../contract/api.js';
import type { LOGIN_ROLES } from '../../contract/enums.js';

export interface OwnerFacts {
  role: (typeof LOGIN_ROLES)[number];
  accountStatus: AccountStatus;
  trialExpiresAt: Date | null;
}

/**
 * The status the admin should see: a customer still marked active whose trial has passed is
 * expired (the same rule the session hook and the nightly sweep apply), so the badge, the
 * filters and the stats agree even before the sweep has run.
 */
export function effectiveStatus(owner: OwnerFacts, now: Date): AccountStatus {
  if (owner.role === 'customer' && owner.accountStatus === 'active' && owner.trialExpiresAt && owner.trialExpiresAt < now) {
    return 'expired';
  }
  return owner.accountStatus;
}

/**
 * Why a number is (not) earning its rent. THE RULE FOR "UNUSED": a number is unused when nobody
 * is assigned to it, or when its owner's account is expired (trial over, not paying). Numbers of
 * suspended, pending or rejected owners are NOT unused: an admin may reinstate those accounts,
 * and releasing the number would take away a number their callers already know.
 */
export type NumberUse = 'in-use' | 'unassigned' | 'owner-expired';

export function numberUse(ownerStatus: AccountStatus | null): NumberUse {
  if (ownerStatus === null) return 'unassigned';
  if (ownerStatus === 'expired') return 'owner-expired';
  return 'in-use';
}

/** Pence to pounds for the API (SPEC.md: monthlyCost is a number in GBP). */
export const pounds = (pence: number) => Math.round(pence) / 100;

/**
 * Stats over the numbers the account holds (released ones are gone and not passed in).
 * potentialSavings is what releasing every unused number would save per month.
 */
export function numberStats(
  numbers: ReadonlyArray<{ monthlyCostPence: number; ownerStatus: AccountStatus | null }>,
  unitCostPence: number,
): ApiNumberStats {
  let total = 0;
  let savings = 0;
  let expired = 0;
  let unassigned = 0;
  for (const n of numbers) {
    total += n.monthlyCostPence;
    const use = numberUse(n.ownerStatus);
    if (use === 'unassigned') unassigned++;
    if (use === 'owner-expired') expired++;
    if (use !== 'in-use') savings += n.monthlyCostPence;
  }
  return {
    activeNumbers: numbers.length,
    totalMonthlyCost: pounds(total),
    monthlyUnitCost: pounds(unitCostPence),
    potentialSavings: pounds(savings),
    expiredNumbers: expired,
    unassignedNumbers: unassigned,
  };
}
