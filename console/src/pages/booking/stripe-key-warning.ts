// The Payments card's word on a full secret key (issue 59 audit): accepted, since an owner may
// have no restricted key, but never silently, as it can do anything on their Stripe account.
import { FULL_KEY_WARNING, type ApiStripeConnection } from '../../../../contract/payments';

/** The warning to show under the connection, or null for a restricted key (or none saved). */
export function stripeKeyWarning(c: Pick<ApiStripeConnection, 'fullKey' | 'keyEnding'>): string | null {
  return c.fullKey && c.keyEnding !== null ? FULL_KEY_WARNING : null;
}
