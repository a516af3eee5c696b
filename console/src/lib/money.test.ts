import { describe, expect, it } from 'vitest';
import { PAYMENT_LIMITS } from '../../../contract/rules';
import { formatPence, penceFromPounds, poundsText } from './money';

describe('formatPence', () => {
  it('shows pence as pounds to two decimals', () => {
    expect(formatPence(2000)).toBe('£20.00');
    expect(formatPence(3900, 'gbp')).toBe('£39.00');
    expect(formatPence(5)).toBe('£0.05');
    expect(formatPence(0)).toBe('£0.00');
    expect(formatPence(123456)).toBe('£1,234.56');
  });
  it("covers the deposit's range", () => {
    expect(formatPence(PAYMENT_LIMITS.depositPence.min)).toBe('£0.30');
    expect(formatPence(PAYMENT_LIMITS.depositPence.max)).toBe('£1,000.00');
  });
  it("reads Stripe's lower-case currency codes", () => {
    expect(formatPence(2050, 'eur')).toBe('€20.50');
    expect(formatPence(2050, 'GBP')).toBe('£20.50');
  });
  it('says an unknown code plainly and refuses fractions of a penny', () => {
    expect(formatPence(2050, 'zz1')).toBe('20.50 ZZ1');
    expect(formatPence(20.5)).toBe('N/A');
    expect(formatPence(Number.NaN)).toBe('N/A');
  });

  it('reads what an owner typed in pounds, and shows pence back in pounds', () => {
    expect(['20', '12.5', '12.50', '£1,000', ' 0.30 ', ''].map(penceFromPounds)).toEqual([2000, 1250, 1250, 100000, 30, null]);
    expect(['12.555', 'twenty', '-5', '1e3'].map(penceFromPounds)).toEqual([NaN, NaN, NaN, NaN]);
    expect([2000, 1250, 30, 100000].map(poundsText)).toEqual(['20', '12.50', '0.30', '1000']);
  });
});
