// Money (issue 59): the API's types, derived from contract/schemas/payments.ts, and its routes.
// docs/payments.md says what each part does.
import type { Static } from 'typebox';
import type { ApiAdminBillingSchema, ApiBillingInvoiceSchema, ApiBillingSchema, ApiStripeConnectionSchema, BillingCheckoutResponse, StripeConnectionBody, StripeTestResponse } from './schemas/payments.js';

export type ApiStripeConnection = Static<typeof ApiStripeConnectionSchema>;
export type ApiStripeConnectionUpdate = Static<typeof StripeConnectionBody>;
export type ApiStripeTest = Static<typeof StripeTestResponse>;
export type ApiBilling = Static<typeof ApiBillingSchema>;
export type ApiBillingInvoice = Static<typeof ApiBillingInvoiceSchema>;
export type ApiBillingCheckout = Static<typeof BillingCheckoutResponse>;
export type ApiAdminBilling = Static<typeof ApiAdminBillingSchema>;

/**
 * Said in "Test connection"'s answer and on the console's Payments card when the saved key is a
 * full secret key (sk_…): it works, but can do far more than the box needs.
 */
export const FULL_KEY_WARNING = 'This is a full secret key: it can do anything on your Stripe account. A restricted key with only Checkout Sessions, Refunds and Webhook Endpoints is safer: see docs/payments.md.';

/** The routes (core/payments/), for the console's requests and the tests. */
export const PAYMENT_ROUTES = {
  /** GET, PUT (StripeConnectionBody), DELETE: the owner's own Stripe account for deposits. */
  stripe: '/api/user/payments/stripe',
  /** POST: test the saved key (and make the box's webhook endpoint on the account when missing). */
  stripeTest: '/api/user/payments/stripe/test',
  /** GET: the plan, its state and invoices (Account Settings). */
  billing: '/api/user/billing',
  /** POST: a Stripe Checkout Session in subscription mode → { url }. */
  billingCheckout: '/api/user/billing/checkout',
  /** POST: cancel at the period's end; resume undoes it until then. */
  billingCancel: '/api/user/billing/cancel',
  billingResume: '/api/user/billing/resume',
  /** GET: subscriptions by state and this month's revenue (Usage & Costs). */
  adminBilling: '/api/admin/billing',
  /** Stripe's webhooks: the operator's account, and each owner's (the box made that endpoint). */
  billingWebhook: '/api/stripe/webhooks/billing',
  depositsWebhook: (userId: number) => `/api/stripe/webhooks/deposits/${userId}`,
} as const;
