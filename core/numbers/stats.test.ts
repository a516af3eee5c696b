import { describe, expect, it } from 'vitest';
import { effectiveStatus, numberStats, numberUse } from './stats.js';

const now = new Date('2026-03-10T12:00:00Z');

describe('the rule for an unused number', () => {
  it('is unused when unassigned or when the owner is expired, and only then', () => {
    expect(numberUse(null)).toBe('unassigned');
    expect(numberUse('expired')).toBe('owner-expired');
    for (const s of ['active', 'suspended', 'pending_approval', 'rejected'] as const) expect(numberUse(s)).toBe('in-use');
  });

  it('treats an active customer whose trial has passed as expired', () => {
    expect(effectiveStatus({ role: 'customer', accountStatus: 'active', trialExpiresAt: new Date('2026-03-09T00:00:00Z') }, now)).toBe('expired');
    expect(effectiveStatus({ role: 'customer', accountStatus: 'active', trialExpiresAt: new Date('2026-03-11T00:00:00Z') }, now)).toBe('active');
    expect(effectiveStatus({ role: 'customer', accountStatus: 'suspended', trialExpiresAt: new Date('2026-03-01T00:00:00Z') }, now)).toBe('suspended');
    expect(effectiveStatus({ role: 'admin', accountStatus: 'active', trialExpiresAt: new Date('2026-03-01T00:00:00Z') }, now)).toBe('active');
  });
});

describe('number stats', () => {
  it('counts, totals and prices the savings of unused numbers in GBP', () => {
    const stats = numberStats(
      [
        { monthlyCostPence: 115, ownerStatus: 'active' },
        { monthlyCostPence: 115, ownerStatus: 'expired' },
        { monthlyCostPence: 115, ownerStatus: null },
        { monthlyCostPence: 115, ownerStatus: null },
        { monthlyCostPence: 115, ownerStatus: 'suspended' },
      ],
      115,
    );
    expect(stats).toEqual({
      activeNumbers: 5,
      totalMonthlyCost: 5.75,
      monthlyUnitCost: 1.15,
      potentialSavings: 3.45,
      expiredNumbers: 1,
      unassignedNumbers: 2,
    });
  });

  it('is all zeros with no numbers, keeping the unit cost', () => {
    expect(numberStats([], 100)).toEqual({
      activeNumbers: 0,
      totalMonthlyCost: 0,
      monthlyUnitCost: 1,
      potentialSavings: 0,
      expiredNumbers: 0,
      unassignedNumbers: 0,
    });
  });
});
