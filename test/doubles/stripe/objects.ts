/**
 * The Stripe objects the double answers with, built as the SDK's own TypeScript types so tsc
 * holds every field to the shape `stripe` (v23, API 2026-10-28) declares: a field the SDK's types
 * add or rename breaks this file's typecheck rather than a test's reading of it.
 *
 * Wire facts followed (https://docs.stripe.com/api): ids with the object's prefix (cs_, cus_,
 * sub_, si_, in_, re_, we_, price_, pi_, evt_, acct_); times in Unix seconds; amounts in the
 * currency's minor unit (pence); nullable fields present as null, never absent; a subscription's
 * period lives on its items (current_period_start/end) since API 2025-03-31; an invoice names
 * its subscription under parent.subscription_details.
 */
import { randomBytes } from 'node:crypto';
import type Stripe from 'stripe';

export function stripeId(prefix: string): string {
  return `${prefix}_${randomBytes(12).toString('base64url').replace(/[-_]/g, 'x')}`;
}

export function listOf<T>(data: T[], url: string, hasMore = false): Stripe.ApiList<T> {
  return { object: 'list', data, has_more: hasMore, url };
}

export interface LineItemInput {
  price?: string;
  quantity: number;
  priceData?: { currency: string; unitAmount: number; productName: string };
}

export interface SessionInput {
  mode: Stripe.Checkout.Session.Mode;
  created: number;
  expiresAt: number;
  successUrl: string | null;
  cancelUrl: string | null;
  currency: string | null;
  amountTotal: number | null;
  customer: string | null;
  customerEmail: string | null;
  clientReferenceId: string | null;
  metadata: Stripe.Metadata;
}

export function checkoutSession(input: SessionInput): Stripe.Checkout.Session {
  const id = stripeId('cs_test');
  return {
    id,
    object: 'checkout.session',
    adaptive_pricing: null,
    after_expiration: null,
    allow_promotion_codes: null,
    allowed_payment_method_types: null,
    amount_subtotal: input.amountTotal,
    amount_total: input.amountTotal,
    automatic_tax: { enabled: false, liability: null, provider: null, status: null },
    billing_address_collection: null,
    cancel_url: input.cancelUrl,
    client_reference_id: input.clientReferenceId,
    client_secret: null,
    collected_information: null,
    consent: null,
    consent_collection: null,
    created: input.created,
    currency: input.currency,
    currency_conversion: null,
    custom_fields: [],
    custom_text: { after_submit: null, shipping_address: null, submit: null, terms_of_service_acceptance: null },
    customer: input.customer,
    customer_account: null,
    customer_creation: input.mode === 'payment' && !input.customer ? 'if_required' : null,
    customer_details: null,
    customer_email: input.customerEmail,
    discounts: [],
    expires_at: input.expiresAt,
    integration_identifier: null,
    invoice: null,
    invoice_creation: null,
    livemode: false,
    locale: null,
    managed_payments: null,
    metadata: input.metadata,
    mode: input.mode,
    origin_context: null,
    payment_intent: null,
    payment_link: null,
    payment_method_collection: input.mode === 'subscription' ? 'always' : null,
    payment_method_configuration_details: null,
    payment_method_options: null,
    payment_method_types: ['card'],
    payment_status: 'unpaid',
    permissions: null,
    recovered_from: null,
    saved_payment_method_options: null,
    setup_intent: null,
    shipping_address_collection: null,
    shipping_cost: null,
    shipping_options: [],
    status: 'open',
    submit_type: null,
    subscription: null,
    success_url: input.successUrl,
    total_details: { amount_discount: 0, amount_shipping: 0, amount_tax: 0 },
    ui_mode: 'hosted',
    url: `https://checkout.stripe.com/c/pay/${id}`,
    wallet_options: null,
  };
}

export function customer(input: { created: number; email: string | null; name: string | null; metadata: Stripe.Metadata }): Stripe.Customer {
  return {
    id: stripeId('cus'),
    object: 'customer',
    address: null,
    balance: 0,
    created: input.created,
    currency: null,
    default_source: null,
    delinquent: false,
    description: null,
    email: input.email,
    invoice_prefix: randomBytes(4).toString('hex').toUpperCase(),
    invoice_settings: { custom_fields: null, default_payment_method: null, footer: null, rendering_options: null },
    livemode: false,
    metadata: input.metadata,
    name: input.name,
    phone: null,
    preferred_locales: [],
    shipping: null,
    tax_exempt: 'none',
    test_clock: null,
  };
}

export function price(input: { created: number; currency: string; unitAmount: number; interval: Stripe.Price.Recurring.Interval | null; nickname: string | null }): Stripe.Price {
  return {
    id: stripeId('price'),
    object: 'price',
    active: true,
    billing_scheme: 'per_unit',
    created: input.created,
    currency: input.currency,
    custom_unit_amount: null,
    livemode: false,
    lookup_key: null,
    metadata: {},
    nickname: input.nickname,
    product: stripeId('prod'),
    recurring: input.interval ? { interval: input.interval, interval_count: 1, meter: null, trial_period_days: null, usage_type: 'licensed' } : null,
    tax_behavior: 'unspecified',
    tiers_mode: null,
    transform_quantity: null,
    type: input.interval ? 'recurring' : 'one_time',
    unit_amount: input.unitAmount,
    // The SDK turns *_decimal strings into its own Decimal type; null is a shape it declares.
    unit_amount_decimal: null,
  };
}

/** The month after `from` (Unix seconds), as Stripe's monthly billing anchors do. */
export function addMonth(from: number): number {
  const d = new Date(from * 1000);
  d.setUTCMonth(d.getUTCMonth() + 1);
  return Math.floor(d.getTime() / 1000);
}

export function subscription(input: {
  created: number;
  customer: string;
  price: Stripe.Price;
  trialEnd: number | null;
  metadata: Stripe.Metadata;
}): Stripe.Subscription {
  const id = stripeId('sub');
  const trialing = input.trialEnd !== null && input.trialEnd > input.created;
  const periodEnd = trialing && input.trialEnd !== null ? input.trialEnd : addMonth(input.created);
  const item: Stripe.SubscriptionItem = {
    id: stripeId('si'),
    object: 'subscription_item',
    billing_thresholds: null,
    created: input.created,
    current_period_end: periodEnd,
    current_period_start: input.created,
    current_trial: null,
    discounts: [],
    metadata: {},
    plan: planOf(input.price),
    price: input.price,
    quantity: 1,
    subscription: id,
    tax_rates: [],
  };
  return {
    id,
    object: 'subscription',
    application: null,
    application_fee_percent: null,
    automatic_tax: { disabled_reason: null, enabled: false, liability: null },
    billing_cycle_anchor: periodEnd,
    billing_cycle_anchor_config: null,
    billing_mode: { flexible: null, type: 'classic' },
    billing_schedules: [],
    billing_thresholds: null,
    cancel_at: null,
    cancel_at_period_end: false,
    canceled_at: null,
    cancellation_details: { comment: null, feedback: null, feedback_option: null, reason: null },
    collection_method: 'charge_automatically',
    created: input.created,
    currency: input.price.currency,
    customer: input.customer,
    customer_account: null,
    days_until_due: null,
    default_payment_method: stripeId('pm'),
    default_source: null,
    default_tax_rates: [],
    description: null,
    discounts: [],
    ended_at: null,
    invoice_settings: { account_tax_ids: null, custom_fields: null, description: null, footer: null, issuer: { type: 'self' } },
    items: listOf([item], `/v1/subscription_items?subscription=${id}`),
    latest_invoice: null,
    livemode: false,
    managed_payments: null,
    metadata: input.metadata,
    next_pending_invoice_item_invoice: null,
    on_behalf_of: null,
    pause_collection: null,
    payment_settings: { payment_method_options: null, payment_method_types: null, save_default_payment_method: 'off' },
    pending_invoice_item_interval: null,
    pending_setup_intent: null,
    pending_update: null,
    schedule: null,
    start_date: input.created,
    status: trialing ? 'trialing' : 'active',
    test_clock: null,
    transfer_data: null,
    trial_end: trialing ? input.trialEnd : null,
    trial_settings: { end_behavior: { billing_cycle_anchor: null, missing_payment_method: 'create_invoice' } },
    trial_start: trialing ? input.created : null,
  };
}

function planOf(p: Stripe.Price): Stripe.Plan {
  return {
    id: p.id,
    object: 'plan',
    active: p.active,
    amount: p.unit_amount,
    amount_decimal: null,
    billing_scheme: 'per_unit',
    created: p.created,
    currency: p.currency,
    interval: p.recurring?.interval ?? 'month',
    interval_count: 1,
    livemode: false,
    metadata: {},
    meter: null,
    nickname: p.nickname,
    product: p.product,
    tiers_mode: null,
    transform_usage: null,
    trial_period_days: null,
    usage_type: 'licensed',
  };
}

export function invoice(input: {
  created: number;
  customer: Stripe.Customer;
  subscription: Stripe.Subscription;
  amount: number;
  paid: boolean;
  periodStart: number;
  periodEnd: number;
  billingReason: Stripe.Invoice.BillingReason;
  accountName: string;
  number: string;
}): Stripe.Invoice {
  const id = stripeId('in');
  return {
    id,
    object: 'invoice',
    account_country: 'GB',
    account_name: input.accountName,
    account_tax_ids: null,
    amount_due: input.amount,
    amount_overpaid: 0,
    amount_paid: input.paid ? input.amount : 0,
    amount_remaining: input.paid ? 0 : input.amount,
    amount_shipping: 0,
    application: null,
    attempt_count: input.amount === 0 ? 0 : 1,
    attempted: input.amount !== 0,
    auto_advance: !input.paid,
    automatic_tax: { disabled_reason: null, enabled: false, liability: null, provider: null, status: null },
    automatically_finalizes_at: null,
    billing_reason: input.billingReason,
    collection_method: 'charge_automatically',
    created: input.created,
    currency: input.subscription.currency,
    custom_fields: null,
    customer: input.customer.id,
    customer_account: null,
    customer_address: null,
    customer_email: input.customer.email,
    customer_name: input.customer.name ?? null,
    customer_phone: null,
    customer_shipping: null,
    customer_tax_exempt: 'none',
    customer_tax_ids: [],
    default_payment_method: null,
    default_source: null,
    default_tax_rates: [],
    description: null,
    discounts: [],
    due_date: null,
    effective_at: input.created,
    ending_balance: 0,
    footer: null,
    from_invoice: null,
    hosted_invoice_url: `https://invoice.stripe.com/i/acct_double/test_${id}`,
    invoice_pdf: `https://pay.stripe.com/invoice/acct_double/test_${id}/pdf`,
    issuer: { type: 'self' },
    last_finalization_error: null,
    latest_revision: null,
    lines: listOf([], `/v1/invoices/${id}/lines`),
    livemode: false,
    metadata: {},
    next_payment_attempt: input.paid ? null : input.created + 3 * 86_400,
    number: input.number,
    on_behalf_of: null,
    parent: {
      quote_details: null,
      subscription_details: { metadata: input.subscription.metadata, subscription: input.subscription.id },
      type: 'subscription_details',
    },
    payment_settings: { default_mandate: null, payment_method_options: null, payment_method_types: null },
    period_end: input.periodEnd,
    period_start: input.periodStart,
    post_payment_credit_notes_amount: 0,
    pre_payment_credit_notes_amount: 0,
    receipt_number: null,
    rendering: null,
    shipping_cost: null,
    shipping_details: null,
    starting_balance: 0,
    statement_descriptor: null,
    status: input.paid ? 'paid' : 'open',
    status_transitions: {
      finalized_at: input.created,
      marked_uncollectible_at: null,
      paid_at: input.paid ? input.created : null,
      voided_at: null,
    },
    subtotal: input.amount,
    subtotal_excluding_tax: input.amount,
    test_clock: null,
    total: input.amount,
    total_discount_amounts: [],
    total_excluding_tax: input.amount,
    total_pretax_credit_amounts: [],
    total_taxes: [],
    webhooks_delivered_at: input.created,
  };
}

export function refund(input: { created: number; amount: number; currency: string; paymentIntent: string; reason: Stripe.Refund.Reason | null; metadata: Stripe.Metadata }): Stripe.Refund {
  return {
    id: stripeId('re'),
    object: 'refund',
    amount: input.amount,
    balance_transaction: stripeId('txn'),
    charge: stripeId('ch'),
    created: input.created,
    currency: input.currency,
    customer: null,
    customer_account: null,
    metadata: input.metadata,
    payment_intent: input.paymentIntent,
    payment_method: null,
    reason: input.reason,
    receipt_number: null,
    source_transfer_reversal: null,
    status: 'succeeded',
    transfer_reversal: null,
  };
}

export function webhookEndpoint(input: { created: number; url: string; enabledEvents: string[]; description: string | null; metadata: Stripe.Metadata; secret: string }): Stripe.WebhookEndpoint {
  return {
    id: stripeId('we'),
    object: 'webhook_endpoint',
    api_version: null,
    application: null,
    created: input.created,
    description: input.description,
    enabled_events: input.enabledEvents,
    livemode: false,
    metadata: input.metadata,
    secret: input.secret,
    status: 'enabled',
    url: input.url,
  };
}

export function account(input: { id: string; name: string; created: number }): Stripe.Account {
  return {
    id: input.id,
    object: 'account',
    business_profile: { annual_revenue: null, estimated_worker_count: null, mcc: null, minority_owned_business_designation: null, name: input.name, support_address: null, support_email: null, support_phone: null, specified_commercial_transactions_act_url: null, support_url: null, url: null },
    business_type: 'company',
    charges_enabled: true,
    country: 'GB',
    created: input.created,
    default_currency: 'gbp',
    details_submitted: true,
    email: null,
    metadata: {},
    payouts_enabled: true,
    type: 'standard',
  };
}
