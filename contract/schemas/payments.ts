// Money (issue 59; core/payments/ owns the routes, docs/payments.md says what each part does).
// The API's shapes, declared once: the server validates and serialises with these, the console
// imports the types contract/payments.ts derives from them. No card number ever passes through
// any of them: cards are typed on Stripe's own hosted pages.
import { Type } from 'typebox';
import { SUBSCRIPTION_STATUSES } from '../enums.js';
import { PAYMENT_LIMITS } from '../rules.js';
import { Nullable, OneOf, refusal } from './shared.js';

// ---- Deposits: the owner's own Stripe account ----

/** The owner's connection as the console shows it: never the key, only its last four characters. */
export const ApiStripeConnectionSchema = Type.Object({
  connected: Type.Boolean(),
  /** What the key showed itself to be on its last test (the account's name), null before one. */
  accountLabel: Nullable(Type.String()),
  livemode: Type.Boolean(),
  keyEnding: Nullable(Type.String()),
  /** The saved key is a full secret key (sk_…), not a restricted one: accepted, with FULL_KEY_WARNING shown. */
  fullKey: Type.Boolean(),
  depositPolicy: Nullable(Type.String()),
  refundOnCallerCancel: Type.Boolean(),
  testedAt: Nullable(Type.String()),
});

export const StripeConnectionBody = Type.Object(
  {
    /** A restricted key (rk_…) with only the rights the box needs (docs/payments.md); a secret key (sk_…) is accepted too. Absent: keep the one saved. */
    secretKey: Type.Optional(Type.String({
      pattern: '^(rk|sk)_(test|live)_[A-Za-z0-9]{8,250}$',
      ...refusal('Paste your Stripe restricted key: it starts rk_live_ (or rk_test_ to try it out).', 'A Stripe key, rk_…'),
    })),
    depositPolicy: Type.Optional(Nullable(Type.String({
      maxLength: PAYMENT_LIMITS.policyMaxChars,
      ...refusal(`Your deposit policy is at most ${PAYMENT_LIMITS.policyMaxChars} characters: it is sent in a text.`, `At most ${PAYMENT_LIMITS.policyMaxChars} characters`),
    }))),
    refundOnCallerCancel: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

/** "Test connection": whether the key works, in plain words either way. */
export const StripeTestResponse = Type.Object({ ok: Type.Boolean(), message: Type.String(), connection: ApiStripeConnectionSchema });

// ---- The operator's subscriptions (BILLING=stripe) ----

export const ApiBillingInvoiceSchema = Type.Object({
  id: Type.String(),
  amountPence: Type.Integer(),
  currency: Type.String(),
  /** Stripe's word: paid, open, void, uncollectible. */
  status: Type.String(),
  /** Stripe's hosted invoice page. */
  hostedUrl: Nullable(Type.String()),
  /** ISO instant the invoice was made. */
  date: Type.String(),
});

/** Account Settings' plan section. `enabled` false (BILLING unset): none of it is shown, and SPEC's trial box is as it was. */
export const ApiBillingSchema = Type.Object({
  enabled: Type.Boolean(),
  /** From the operator's Stripe price: "Professional Plan", 3900, "gbp", "month". */
  plan: Nullable(Type.Object({ name: Type.String(), amountPence: Type.Integer(), currency: Type.String(), interval: Type.String() })),
  /** The subscription's status; null: no card added yet. */
  status: Nullable(OneOf(SUBSCRIPTION_STATUSES)),
  hasCard: Type.Boolean(),
  trialEndsAt: Nullable(Type.String()),
  nextPaymentAt: Nullable(Type.String()),
  /** The end of the period paid for (Stripe's current_period_end): when a cancelled plan ends, as nextPaymentAt is null then. */
  periodEndsAt: Nullable(Type.String()),
  cancelAtPeriodEnd: Type.Boolean(),
  /** A failed payment: when the line pauses unless it is paid. */
  graceEndsAt: Nullable(Type.String()),
  /** The banner the console shows above every page (a failed payment, a trial about to end), null = none. */
  banner: Nullable(Type.String()),
  invoices: Type.Array(ApiBillingInvoiceSchema),
});

/** Where the browser goes next: Stripe Checkout's hosted page. */
export const BillingCheckoutResponse = Type.Object({ url: Type.String() });

/** The admin's Usage & Costs: subscriptions by state and this month's revenue beside the number costs. */
export const ApiAdminBillingSchema = Type.Object({
  enabled: Type.Boolean(),
  trialling: Type.Integer(),
  active: Type.Integer(),
  pastDue: Type.Integer(),
  cancelled: Type.Integer(),
  /** Paid invoices this London month, in pence of `currency`. */
  monthlyRevenuePence: Type.Integer(),
  currency: Type.String(),
});
