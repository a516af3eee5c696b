import { describe, expect, it } from 'vitest';
import { formatPostcode, isUkPostcode, newPasswordError, passwordErrors, passwordStrength } from './rules.js';

describe('sign-up password checklist', () => {
  it('lists every failed rule with the spec message, in checklist order', () => {
    expect(passwordErrors('')).toEqual([
      'Password must be at least 8 characters',
      'Password must contain at least one uppercase letter',
      'Password must contain at least one lowercase letter',
      'Password must contain at least one number',
      'Password must contain at least one special character (!@#$%^&*)',
    ]);
    expect(passwordErrors('Abcdefg1!')).toEqual([]);
    expect(passwordErrors('abcdefg1!')).toEqual(['Password must contain at least one uppercase letter']);
  });

  it('only counts !@#$%^&* as special characters', () => {
    expect(passwordErrors('Abcdefg1?')).toEqual(['Password must contain at least one special character (!@#$%^&*)']);
  });

  it('grades strength by checks passed: ≤2 weak, 3–4 medium, 5 strong', () => {
    expect(passwordStrength('ab')).toBe('weak'); // lower only
    expect(passwordStrength('abcdefgh')).toBe('weak'); // length + lower
    expect(passwordStrength('Abcdefgh')).toBe('medium'); // 3
    expect(passwordStrength('Abcdefg1')).toBe('medium'); // 4
    expect(passwordStrength('Abcdefg1!')).toBe('strong');
  });
});

describe('postcode', () => {
  it('formats as typed: no spaces, upper case, a space before the last 3 once 5+ remain', () => {
    expect(formatPostcode('sw1a1aa')).toBe('SW1A 1AA');
    expect(formatPostcode(' s w1a 1a a ')).toBe('SW1A 1AA');
    expect(formatPostcode('ls11')).toBe('LS11');
    expect(formatPostcode('ls11a')).toBe('LS 11A');
    expect(formatPostcode('m11ae')).toBe('M1 1AE');
  });

  it('accepts real UK postcode shapes and refuses others', () => {
    for (const ok of ['SW1A 1AA', 'm1 1ae', 'B33 8TH', 'CR2 6XH', 'DN55 1PT', 'EC1A 1BB', 'GIR 0AA']) expect(isUkPostcode(ok), ok).toBe(true);
    for (const bad of ['12345', 'ABC', 'SW1A', 'Q1 1AA', '90210', 'SW1A 1AAA']) expect(isUkPostcode(bad), bad).toBe(false);
  });
});

describe('change and reset password', () => {
  it('needs 6+ characters and a matching confirmation', () => {
    expect(newPasswordError('12345', '12345')).toBe('Password must be at least 6 characters');
    expect(newPasswordError('123456', '1234567')).toBe('Passwords do not match');
    expect(newPasswordError('123456', '123456')).toBeNull();
    expect(newPasswordError('123456')).toBeNull();
  });
});
