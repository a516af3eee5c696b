import { describe, expect, it } from 'vitest';
import { costSplit, isLowBalance, yearlySavings } from './usage';

describe('usage', () => {
  it('low balance is below 10', () => {
    expect(isLowBalance(9.99)).toBe(true);
    expect(isLowBalance(10)).toBe(false);
  });
  it('splits the cost', () => {
    expect(
      costSplit({
        balance: { amount: 20, currency: 'GBP' },
        totalCost: 5,
        period: { startDate: '2026-05-01' },
        phoneNumbers: { count: 2, monthlyCost: 2 },
        calls: { inbound: { count: 3, price: 0.5 }, outbound: { count: 1, price: 0.25 } },
        sms: { inbound: { count: 1, price: 0.1 }, outbound: { count: 4, price: 0.4 } },
        recordings: { count: 3, price: 0.03 },
        ownerCalls: { attempts: 1, minutes: 2, dailyMinutesCap: 120, owners: [] },
        callerTexts: { texts: 0, segments: 0, dailyPerOwnerCap: 50, dailyBoxCap: 1000, owners: [] },
        textsSaved: 0,
      }),
    ).toEqual({ calls: 0.75, sms: 0.5, numbers: 2, recordings: 0.03 });
  });
  it('yearly savings are 12 months', () => {
    expect(yearlySavings(3)).toBe(36);
  });
});
