import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAYMENT_ROUTES } from '../../../contract/payments.js';
import { expireTrials, findUserById } from '../../../core/accounts/users.js';
import { BillingService } from '../../../core/payments/billing/billing-service.js';
import { activeCustomer, signInAdmin } from '../../helpers/accounts.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';

// BILLING unset: the box is as SPEC says, the trial ends and an admin changes the account by hand.
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('with BILLING unset', () => {
  it('shows no plan, takes no card, and the admin sees billing off', async () => {
    const owner = await activeCustomer(server);
    const billing = await owner.client.get(PAYMENT_ROUTES.billing);
    expect(billing.status).toBe(200);
    expect(billing.body).toEqual({ enabled: false, plan: null, status: null, hasCard: false, trialEndsAt: null, nextPaymentAt: null, periodEndsAt: null, cancelAtPeriodEnd: false, graceEndsAt: null, banner: null, invoices: [] });
    const checkout = await owner.client.post(PAYMENT_ROUTES.billingCheckout);
    expect(checkout.status).toBe(404);
    expect(checkout.body.message).toBe('Paying by card is not set up on this box: please contact support.');
    const admin = await signInAdmin(server);
    expect((await admin.get(PAYMENT_ROUTES.adminBilling)).body).toEqual({ enabled: false, trialling: 0, active: 0, pastDue: 0, cancelled: 0, monthlyRevenuePence: 0, currency: 'gbp' });
    // An admin has no plan of their own: words, not a blank.
    const adminOwn = await admin.get(PAYMENT_ROUTES.billing);
    expect(adminOwn.status).toBe(403);
    expect(adminOwn.body.message).toBe('Plans and cards belong to business accounts.');
  });

  it('keeps today\'s trial: it lapses to expired, SPEC\'s trial box words stand, and the admin\'s manual flow turns it back on', async () => {
    const owner = await activeCustomer(server);
    server.clock.offsetMs = 8 * 86_400_000;
    try {
      expect(await expireTrials(server.database.db, server.services.now())).toBeGreaterThanOrEqual(1);
      expect((await findUserById(server.database.db, owner.user.id))?.accountStatus).toBe('expired');
      // The billing sweep does nothing without BILLING: no reminder, no change.
      expect(await new BillingService(server.services).sweep()).toEqual({ changed: 0, reminders: 0 });
      const me = await owner.client.get('/api/auth/me');
      expect(me.body.user.trialExpiresAt).not.toBeNull();
      const admin = await signInAdmin(server);
      const patched = await admin.patch(`/api/admin/users/${owner.user.id}`, { accountStatus: 'active' });
      expect(patched.status).toBe(200);
      expect((await findUserById(server.database.db, owner.user.id))?.accountStatus).toBe('active');
    } finally {
      server.clock.offsetMs = 0;
    }
  });
});
