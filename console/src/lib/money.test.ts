import { describe, expect, it } from 'vitest';
import { PAYMENT_LIMITS } from '../../../contract/rules';
import { formatPence } from './money';

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
});
