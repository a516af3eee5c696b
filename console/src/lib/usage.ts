// Usage & Costs rules (SPEC.md §2, §9 Costs and usage).
import type { ApiUsage } from '../../../contract/api';

const LOW_BALANCE = 10;
export const USAGE_REFRESH_MS = 5 * 60 * 1000;
export const NUMBER_RENTAL_TEXT = '£1.00';

export const isLowBalance = (amount: number) => amount < LOW_BALANCE;

/** The total panel's split of the month's cost. */
export function costSplit(u: ApiUsage) {
  return {
    calls: u.calls.inbound.price + u.calls.outbound.price,
    sms: u.sms.inbound.price + u.sms.outbound.price,
    numbers: u.phoneNumbers.monthlyCost,
    recordings: u.recordings.price,
  };
}

export const yearlySavings = (monthlyPotentialSavings: number) => monthlyPotentialSavings * 12;
