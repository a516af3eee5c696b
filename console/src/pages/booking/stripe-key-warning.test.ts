import { describe, expect, it } from 'vitest';
import { stripeKeyWarning } from './stripe-key-warning';

describe('the Payments card\'s word on the saved Stripe key', () => {
  it('warns plainly about a full secret key, and says nothing for a restricted key or none', () => {
    expect(stripeKeyWarning({ fullKey: true, keyEnding: 'ab12' })).toBe('This is a full secret key: it can do anything on your Stripe account. A restricted key with only Checkout Sessions, Refunds and Webhook Endpoints is safer: see docs/payments.md.');
    expect(stripeKeyWarning({ fullKey: false, keyEnding: 'ab12' })).toBeNull();
    expect(stripeKeyWarning({ fullKey: false, keyEnding: null })).toBeNull();
  });
});
