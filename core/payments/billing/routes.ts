import { PAYMENT_ROUTES } from '../../../contract/payments.js';
import { ApiAdminBillingSchema, ApiBillingSchema, BillingCheckoutResponse } from '../../../contract/schemas/payments.js';
import { ADMIN_ONLY } from '../../http/access-guard.js';
import { forbidden } from '../../http/errors.js';
import type { App } from '../../http/fastify-types.js';
import { currentUser } from '../../http/session-hook.js';
import type { FastifyRequest } from 'fastify';
import type { BillingService } from './billing-service.js';

/** The business owner's own sign-in: an admin has no plan, and a staff sign-in never reaches here (core/team/staff-scope.ts). */
function owner(req: FastifyRequest) {
  const user = currentUser(req);
  if (user.role !== 'customer') throw forbidden('Plans and cards belong to business accounts.');
  return user;
}

/** Account Settings' plan and the admin's Usage & Costs figures (PAYMENT_ROUTES; docs/payments.md). */
export function billingRoutes(billing: BillingService) {
  return async function routes(app: App): Promise<void> {
    app.get(PAYMENT_ROUTES.billing, { schema: { response: { 200: ApiBillingSchema } } }, async (req) => billing.view(owner(req)));
    app.post(PAYMENT_ROUTES.billingCheckout, { schema: { response: { 200: BillingCheckoutResponse } } }, async (req) => billing.checkout(owner(req)));
    app.post(PAYMENT_ROUTES.billingCancel, { schema: { response: { 200: ApiBillingSchema } } }, async (req) => billing.setCancelAtPeriodEnd(owner(req), true));
    app.post(PAYMENT_ROUTES.billingResume, { schema: { response: { 200: ApiBillingSchema } } }, async (req) => billing.setCancelAtPeriodEnd(owner(req), false));
    app.get(PAYMENT_ROUTES.adminBilling, { config: ADMIN_ONLY, schema: { response: { 200: ApiAdminBillingSchema } } }, async () => billing.admin());
  };
}
