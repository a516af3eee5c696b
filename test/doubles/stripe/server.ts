/**
 * A double of the parts of Stripe's API (v1) the box calls, on loopback, so the real `stripe` SDK
 * runs unchanged against it: `stripeClient(key, double.url)` (core/payments/stripe-client.ts).
 *
 * Wire facts followed (https://docs.stripe.com/api): Bearer auth with the account's secret or
 * restricted key; bodies application/x-www-form-urlencoded with bracketed names (parsed with `qs`,
 * as Stripe's own libraries encode them); JSON answers; errors `{ error: { type, message, code?,
 * param? } }` with 400 (invalid request, idempotency), 401 (unknown key), 403 (a restricted key
 * without the right), 404 (no such object); lists `{ object: 'list', data, has_more, url }`,
 * newest first; an `Idempotency-Key` replays the first answer for the same request and refuses
 * another request under the same key; a Checkout Session's expires_at lies between 30 minutes and
 * 24 hours after its creation; a subscription Checkout's trial_end at least 48 hours ahead.
 *
 * The box must give every POST its own key derived from its ids: a POST without one, or with the
 * SDK's automatic `stripe-node-retry-…`, is refused and recorded in `violations`, which tests
 * assert empty (issue 59: "a test fails if the box sends a request without an idempotency key").
 */
import http from 'node:http';
import { createHash, randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import qs from 'qs';
import Stripe from 'stripe';
import * as build from './objects.js';

/** A restricted key's rights, named as Stripe names them (rak_<resource>_<read|write>); write includes read. */
type StripeResource = 'checkout_session' | 'customer' | 'subscription' | 'invoice' | 'refund' | 'webhook' | 'price' | 'account';
export type StripePermission = `rak_${StripeResource}_${'read' | 'write'}`;

interface StripeAccountOptions {
  /** sk_test_… (all rights) or rk_test_… (only `permissions`). */
  key: string;
  name: string;
  /** For a restricted key: the rights it has. Absent: every right. */
  permissions?: StripePermission[];
}

export interface StripeAccountHandle {
  id: string;
  key: string;
  name: string;
  /** A price on this account (the operator's £39/month: `{ unitAmount: 3900, currency: 'gbp', interval: 'month' }`). */
  price(input: { unitAmount: number; currency?: string; interval?: 'month' | 'year' | null; nickname?: string }): Stripe.Price;
  sessions(): Stripe.Checkout.Session[];
  customers(): Stripe.Customer[];
  subscriptions(): Stripe.Subscription[];
  invoices(): Stripe.Invoice[];
  refunds(): Stripe.Refund[];
  /** The endpoints the box made here, each with its whsec_ secret (Stripe shows it only at creation). */
  webhookEndpoints(): Stripe.WebhookEndpoint[];
}

interface StripeRecordedRequest {
  method: string;
  path: string;
  query: Record<string, unknown>;
  params: Record<string, unknown>;
  idempotencyKey: string | null;
  /** The account the key named; null when the key was unknown or missing. */
  account: string | null;
  status: number;
  /** Answered from the idempotency store, not done again. */
  replayed: boolean;
}

interface StripeViolation {
  method: string;
  path: string;
  idempotencyKey: string | null;
  reason: string;
}

interface SendOptions {
  /** The signature's timestamp (Unix seconds); default the double's now. An old one tests the tolerance. */
  created?: number;
  /** A Stripe-Signature header of the test's own (forged); null sends none. */
  signature?: string | null;
}

type EventType = Stripe.Event.Type;
type StripeEventOf<T extends EventType> = Extract<Stripe.Event, { type: T }>;

export interface StripeDoubleOptions {
  /** The double's clock (Stripe's "now"): follow a test's fake clock. Default the real one. */
  now?: () => Date;
}

export interface StripeDouble {
  url: string;
  account(opts: StripeAccountOptions): StripeAccountHandle;
  requests: StripeRecordedRequest[];
  violations: StripeViolation[];
  /** Every event the double made, in order (controls and API calls alike). */
  events: Stripe.Event[];
  /** The customer paid: payment mode → paid with a payment_intent; subscription mode → a subscription (trialing or active). */
  completeCheckout(sessionId: string): Stripe.Event[];
  /** The session's time ran out unpaid (also done by itself once the double's clock passes its expires_at). */
  expireCheckout(sessionId: string): Stripe.Event[];
  /** The period's end: an invoice paid (active) or failing (past_due); a subscription cancelling at the period's end ends. */
  renew(subscriptionId: string, opts: { pay: boolean }): Stripe.Event[];
  /**
   * Stripe slow at one call, on cue: every request to `method path` (e.g. POST /v1/checkout/sessions)
   * waits, recorded but not yet done, until `release()`; then each is answered as it would have been.
   */
  stall(method: string, path: string): { release(): void };
  /** Stripe unreachable: `refused` closes the listener (connection refused), `503` answers api_error. */
  down(on: boolean, how?: 'refused' | '503'): Promise<void>;
  event<T extends EventType>(type: T, object: StripeEventOf<T>['data']['object'], previousAttributes?: Record<string, unknown>): StripeEventOf<T>;
  /** POSTs the event to the box as Stripe does, signed with `secret` (SDK's generateTestHeaderString). */
  send(url: string, event: Stripe.Event, secret: string, opts?: SendOptions): Promise<{ status: number; body: string }>;
  close(): Promise<void>;
}

class StripeApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: { type: string; message: string; code?: string; param?: string },
  ) {
    super(body.message);
  }
}

const missing = (kind: string, id: string) => new StripeApiError(404, { type: 'invalid_request_error', code: 'resource_missing', message: `No such ${kind}: '${id}'`, param: 'id' });
const invalid = (message: string, param?: string, code?: string) =>
  new StripeApiError(400, { type: 'invalid_request_error', message, ...(param ? { param } : {}), ...(code ? { code } : {}) });

interface AccountState {
  id: string;
  key: string;
  name: string;
  created: number;
  permissions: StripePermission[] | null;
  sessions: Map<string, Stripe.Checkout.Session>;
  /** What each session was created with that the Session object does not keep (price, trial_end). */
  sessionPlans: Map<string, { price: Stripe.Price | null; trialEnd: number | null; subscriptionMetadata: Stripe.Metadata }>;
  customers: Map<string, Stripe.Customer>;
  subscriptions: Map<string, Stripe.Subscription>;
  invoices: Map<string, Stripe.Invoice>;
  refunds: Map<string, Stripe.Refund>;
  endpoints: Map<string, Stripe.WebhookEndpoint>;
  prices: Map<string, Stripe.Price>;
  /** Refunded pence by payment_intent. */
  refunded: Map<string, number>;
  idempotency: Map<string, { fingerprint: string; status: number; body: string }>;
  invoiceCount: number;
}

type Params = Record<string, unknown>;
type Access = [StripeResource, 'read' | 'write'];
interface Route {
  method: string;
  path: RegExp;
  access: Access;
  run(acct: AccountState, match: RegExpMatchArray, params: Params): unknown;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const int = (v: unknown, param: string): number | undefined => {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (typeof v !== 'string' || !Number.isInteger(n)) throw invalid(`Invalid integer: ${String(v)}`, param);
  return n;
};
const record = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : v && typeof v === 'object' ? Object.values(v) : []);
const metadataOf = (v: unknown): Stripe.Metadata => Object.fromEntries(Object.entries(record(v)).filter(([, x]) => typeof x === 'string' && x !== '')) as Stripe.Metadata;
/** Stripe's metadata update: keys merge, an empty value removes its key. */
function mergeMetadata(old: Stripe.Metadata, v: unknown): Stripe.Metadata {
  const out: Stripe.Metadata = { ...old };
  for (const [k, x] of Object.entries(record(v))) {
    if (x === '') delete out[k];
    else if (typeof x === 'string') out[k] = x;
  }
  return out;
}
const mask = (key: string) => `${key.slice(0, key.indexOf('_', 3) + 1)}****${key.slice(-4)}`;

export async function startStripeDouble(opts: StripeDoubleOptions = {}): Promise<StripeDouble> {
  const nowSeconds = () => Math.floor((opts.now?.() ?? new Date()).getTime() / 1000);
  const accounts = new Map<string, AccountState>();
  const requests: StripeRecordedRequest[] = [];
  const violations: StripeViolation[] = [];
  const events: Stripe.Event[] = [];
  let downMode: 'refused' | '503' | null = null;
  const stalls: Array<{ method: string; path: string; released: Promise<void> }> = [];

  function makeEvent<T extends EventType>(type: T, object: StripeEventOf<T>['data']['object'], previousAttributes?: Record<string, unknown>): StripeEventOf<T> {
    // A snapshot: later changes to the object must not rewrite an event already made.
    const data = { object: structuredClone(object), ...(previousAttributes ? { previous_attributes: structuredClone(previousAttributes) } : {}) };
    const made = {
      id: build.stripeId('evt'),
      object: 'event',
      api_version: Stripe.API_VERSION,
      created: nowSeconds(),
      data,
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
    };
    // The SDK's Event is a union discriminated by `type`; T names the member this one is.
    return made as unknown as StripeEventOf<T>;
  }
  function emit<T extends EventType>(type: T, object: StripeEventOf<T>['data']['object'], previous?: Record<string, unknown>): StripeEventOf<T> {
    const e = makeEvent(type, object, previous);
    events.push(e);
    return e;
  }

  function owning<T>(pick: (a: AccountState) => Map<string, T>, id: string, kind: string): { acct: AccountState; obj: T } {
    for (const acct of accounts.values()) {
      const obj = pick(acct).get(id);
      if (obj) return { acct, obj };
    }
    throw missing(kind, id);
  }

  function priceOf(acct: AccountState, id: string, param: string): Stripe.Price {
    const p = acct.prices.get(id);
    if (!p) throw invalid(`No such price: '${id}'`, param, 'resource_missing');
    return p;
  }

  function page<T extends { id: string; created: number }>(items: T[], query: Params, url: string): Stripe.ApiList<T> {
    const sorted = [...items].sort((a, b) => b.created - a.created);
    const after = str(query.starting_after);
    const from = after ? sorted.findIndex((x) => x.id === after) + 1 : 0;
    const limit = Math.min(Math.max(int(query.limit, 'limit') ?? 10, 1), 100);
    const slice = sorted.slice(from, from + limit);
    return build.listOf(slice, url, from + limit < sorted.length);
  }

  /** `expand[]`: ids at the given top-level fields become their objects, as Stripe does. */
  function expand<T extends object>(acct: AccountState, obj: T, params: Params): T {
    const paths = list(params.expand).filter((x): x is string => typeof x === 'string');
    if (paths.length === 0) return obj;
    const out: Record<string, unknown> = { ...(obj as Record<string, unknown>) };
    for (const p of paths) {
      const id = out[p];
      if (typeof id !== 'string') continue;
      out[p] = acct.subscriptions.get(id) ?? acct.customers.get(id) ?? acct.invoices.get(id) ?? id;
    }
    return out as T;
  }

  function createSession(acct: AccountState, params: Params): Stripe.Checkout.Session {
    const created = nowSeconds();
    const mode = str(params.mode);
    if (mode !== 'payment' && mode !== 'subscription') throw invalid(mode ? `The double does not take mode '${mode}'.` : 'Missing required param: mode.', 'mode');
    const items = list(params.line_items).map(record);
    if (items.length === 0) throw invalid('Missing required param: line_items.', 'line_items');
    let currency: string | null = null;
    let total = 0;
    let recurring: Stripe.Price | null = null;
    items.forEach((item, i) => {
      const quantity = int(item.quantity, `line_items[${i}][quantity]`) ?? 1;
      const priceId = str(item.price);
      if (priceId) {
        const p = priceOf(acct, priceId, `line_items[${i}][price]`);
        if (mode === 'subscription' && !p.recurring) throw invalid('You specified `subscription` mode but passed a non-recurring price.', `line_items[${i}][price]`);
        if (mode === 'payment' && p.recurring) throw invalid('You specified `payment` mode but passed a recurring price.', `line_items[${i}][price]`);
        if (p.recurring) recurring = p;
        currency = p.currency;
        total += (p.unit_amount ?? 0) * quantity;
        return;
      }
      const data = record(item.price_data);
      const unit = int(data.unit_amount, `line_items[${i}][price_data][unit_amount]`);
      const cur = str(data.currency);
      if (unit === undefined || !cur) throw invalid('Each line item needs a price or price_data with currency and unit_amount.', `line_items[${i}]`);
      if (!str(data.product) && !str(record(data.product_data).name)) throw invalid('Missing required param: line_items[0][price_data][product_data][name].', `line_items[${i}][price_data][product_data][name]`);
      if (mode === 'subscription' && !data.recurring) throw invalid('You must provide at least one recurring price in `subscription` mode when using prices.', 'line_items');
      currency = cur;
      total += unit * quantity;
    });
    if (mode === 'subscription' && !recurring) throw invalid('You must provide at least one recurring price in `subscription` mode when using prices.', 'line_items');
    const expiresAt = int(params.expires_at, 'expires_at') ?? created + 86_400;
    if (expiresAt < created + 1800) throw invalid('The `expires_at` timestamp must be at least 30 minutes from Checkout Session creation.', 'expires_at');
    if (expiresAt > created + 86_400) throw invalid('The `expires_at` timestamp must be less than 24 hours from Checkout Session creation.', 'expires_at');
    const subData = record(params.subscription_data);
    const trialEnd = int(subData.trial_end, 'subscription_data[trial_end]') ?? null;
    if (trialEnd !== null && trialEnd < created + 2 * 86_400) throw invalid('`subscription_data[trial_end]` must be at least 48 hours in the future.', 'subscription_data[trial_end]');
    const customerId = str(params.customer) ?? null;
    if (customerId && !acct.customers.has(customerId)) throw invalid(`No such customer: '${customerId}'`, 'customer', 'resource_missing');
    const session = build.checkoutSession({
      mode,
      created,
      expiresAt,
      successUrl: str(params.success_url) ?? null,
      cancelUrl: str(params.cancel_url) ?? null,
      currency,
      amountTotal: total,
      customer: customerId,
      customerEmail: str(params.customer_email) ?? null,
      clientReferenceId: str(params.client_reference_id) ?? null,
      metadata: metadataOf(params.metadata),
    });
    acct.sessions.set(session.id, session);
    acct.sessionPlans.set(session.id, { price: recurring, trialEnd, subscriptionMetadata: metadataOf(subData.metadata) });
    return session;
  }

  function expireSession(session: Stripe.Checkout.Session): Stripe.Event[] {
    if (session.status !== 'open') throw invalid('Only Checkout Sessions with a status in ["open"] can be expired.', 'session');
    session.status = 'expired';
    session.url = null;
    return [emit('checkout.session.expired', session)];
  }

  /** Stripe expires an open session at its expires_at (and says so with checkout.session.expired): here, when the double's clock is next looked at. */
  function expireDue(acct: AccountState): void {
    const t = nowSeconds();
    for (const session of acct.sessions.values()) if (session.status === 'open' && session.expires_at <= t) expireSession(session);
  }

  function newInvoice(acct: AccountState, sub: Stripe.Subscription, amount: number, paid: boolean, reason: Stripe.Invoice.BillingReason): Stripe.Invoice {
    const cus = acct.customers.get(typeof sub.customer === 'string' ? sub.customer : sub.customer.id);
    if (!cus) throw new Error(`stripe double: subscription ${sub.id} has no customer`);
    const item = sub.items.data[0];
    acct.invoiceCount += 1;
    const inv = build.invoice({
      created: nowSeconds(),
      customer: cus,
      subscription: sub,
      amount,
      paid,
      periodStart: item?.current_period_start ?? sub.created,
      periodEnd: item?.current_period_end ?? sub.created,
      billingReason: reason,
      accountName: acct.name,
      number: `${cus.invoice_prefix ?? 'INV'}-${String(acct.invoiceCount).padStart(4, '0')}`,
    });
    acct.invoices.set(inv.id, inv);
    sub.latest_invoice = inv.id;
    return inv;
  }

  function updateSubscription(sub: Stripe.Subscription, params: Params): Stripe.Event[] {
    const previous: Record<string, unknown> = {};
    const cape = str(params.cancel_at_period_end);
    if (cape !== undefined) {
      if (sub.status === 'canceled') throw invalid('A canceled subscription can only update its cancellation_details and metadata.', 'cancel_at_period_end');
      const next = cape === 'true';
      if (next !== sub.cancel_at_period_end) {
        previous.cancel_at_period_end = sub.cancel_at_period_end;
        previous.cancel_at = sub.cancel_at;
        previous.canceled_at = sub.canceled_at;
        sub.cancel_at_period_end = next;
        sub.cancel_at = next ? (sub.items.data[0]?.current_period_end ?? null) : null;
        sub.canceled_at = next ? nowSeconds() : null;
      }
    }
    if (params.metadata !== undefined) {
      previous.metadata = sub.metadata;
      sub.metadata = mergeMetadata(sub.metadata, params.metadata);
    }
    return Object.keys(previous).length ? [emit('customer.subscription.updated', sub, previous)] : [];
  }

  function endSubscription(sub: Stripe.Subscription, reason: Stripe.Subscription.CancellationDetails.Reason): Stripe.Event[] {
    if (sub.status === 'canceled') throw invalid(`No such subscription: '${sub.id}'`, 'id', 'resource_missing');
    const t = nowSeconds();
    sub.status = 'canceled';
    sub.canceled_at ??= t;
    sub.ended_at = t;
    sub.cancellation_details = { comment: null, feedback: null, feedback_option: null, reason };
    return [emit('customer.subscription.deleted', sub)];
  }

  const routes: Route[] = [
    { method: 'POST', path: /^\/v1\/checkout\/sessions$/, access: ['checkout_session', 'write'], run: (a, _m, p) => createSession(a, p) },
    {
      method: 'GET',
      path: /^\/v1\/checkout\/sessions$/,
      access: ['checkout_session', 'read'],
      run: (a, _m, q) => {
        const pi = str(q.payment_intent);
        const cus = str(q.customer);
        const sub = str(q.subscription);
        const status = str(q.status);
        const all = [...a.sessions.values()].filter(
          (s) => (!pi || s.payment_intent === pi) && (!cus || s.customer === cus) && (!sub || s.subscription === sub) && (!status || s.status === status),
        );
        return page(all, q, '/v1/checkout/sessions');
      },
    },
    {
      method: 'GET',
      path: /^\/v1\/checkout\/sessions\/([^/]+)$/,
      access: ['checkout_session', 'read'],
      run: (a, m, q) => {
        const s = a.sessions.get(m[1] ?? '');
        if (!s) throw missing('checkout.session', m[1] ?? '');
        return expand(a, s, q);
      },
    },
    {
      method: 'POST',
      path: /^\/v1\/checkout\/sessions\/([^/]+)\/expire$/,
      access: ['checkout_session', 'write'],
      run: (a, m) => {
        const s = a.sessions.get(m[1] ?? '');
        if (!s) throw missing('checkout.session', m[1] ?? '');
        expireSession(s);
        return s;
      },
    },
    {
      method: 'POST',
      path: /^\/v1\/customers$/,
      access: ['customer', 'write'],
      run: (a, _m, p) => {
        const c = build.customer({ created: nowSeconds(), email: str(p.email) ?? null, name: str(p.name) ?? null, metadata: metadataOf(p.metadata) });
        a.customers.set(c.id, c);
        return c;
      },
    },
    {
      method: 'GET',
      path: /^\/v1\/customers\/([^/]+)$/,
      access: ['customer', 'read'],
      run: (a, m) => a.customers.get(m[1] ?? '') ?? (() => { throw missing('customer', m[1] ?? ''); })(),
    },
    {
      method: 'POST',
      path: /^\/v1\/customers\/([^/]+)$/,
      access: ['customer', 'write'],
      run: (a, m, p) => {
        const c = a.customers.get(m[1] ?? '');
        if (!c) throw missing('customer', m[1] ?? '');
        if (p.email !== undefined) c.email = str(p.email) || null;
        if (p.name !== undefined) c.name = str(p.name) || null;
        if (p.metadata !== undefined) c.metadata = mergeMetadata(c.metadata, p.metadata);
        return c;
      },
    },
    {
      method: 'GET',
      path: /^\/v1\/subscriptions$/,
      access: ['subscription', 'read'],
      run: (a, _m, q) => {
        const cus = str(q.customer);
        const status = str(q.status);
        // Stripe's default: every status but canceled; `all` includes them.
        const all = [...a.subscriptions.values()].filter(
          (s) => (!cus || s.customer === cus) && (status === 'all' ? true : status ? s.status === status : s.status !== 'canceled'),
        );
        return page(all, q, '/v1/subscriptions');
      },
    },
    {
      method: 'GET',
      path: /^\/v1\/subscriptions\/([^/]+)$/,
      access: ['subscription', 'read'],
      run: (a, m, q) => {
        const s = a.subscriptions.get(m[1] ?? '');
        if (!s) throw missing('subscription', m[1] ?? '');
        return expand(a, s, q);
      },
    },
    {
      method: 'POST',
      path: /^\/v1\/subscriptions\/([^/]+)$/,
      access: ['subscription', 'write'],
      run: (a, m, p) => {
        const s = a.subscriptions.get(m[1] ?? '');
        if (!s) throw missing('subscription', m[1] ?? '');
        updateSubscription(s, p);
        return s;
      },
    },
    {
      method: 'DELETE',
      path: /^\/v1\/subscriptions\/([^/]+)$/,
      access: ['subscription', 'write'],
      run: (a, m) => {
        const s = a.subscriptions.get(m[1] ?? '');
        if (!s) throw missing('subscription', m[1] ?? '');
        endSubscription(s, 'cancellation_requested');
        return s;
      },
    },
    {
      method: 'GET',
      path: /^\/v1\/invoices$/,
      access: ['invoice', 'read'],
      run: (a, _m, q) => {
        const cus = str(q.customer);
        const sub = str(q.subscription);
        const status = str(q.status);
        const all = [...a.invoices.values()].filter(
          (i) => (!cus || i.customer === cus) && (!sub || i.parent?.subscription_details?.subscription === sub) && (!status || i.status === status),
        );
        return page(all, q, '/v1/invoices');
      },
    },
    {
      method: 'GET',
      path: /^\/v1\/invoices\/([^/]+)$/,
      access: ['invoice', 'read'],
      run: (a, m) => a.invoices.get(m[1] ?? '') ?? (() => { throw missing('invoice', m[1] ?? ''); })(),
    },
    {
      method: 'POST',
      path: /^\/v1\/refunds$/,
      access: ['refund', 'write'],
      run: (a, _m, p) => {
        const pi = str(p.payment_intent);
        if (!pi) throw invalid('Missing required param: payment_intent.', 'payment_intent');
        const session = [...a.sessions.values()].find((s) => s.payment_intent === pi);
        if (!session) throw invalid(`No such payment_intent: '${pi}'`, 'payment_intent', 'resource_missing');
        const paid = session.amount_total ?? 0;
        const done = a.refunded.get(pi) ?? 0;
        const amount = int(p.amount, 'amount') ?? paid - done;
        if (done >= paid) throw invalid(`Charge for ${pi} has already been refunded.`, undefined, 'charge_already_refunded');
        if (amount <= 0 || amount > paid - done) throw invalid(`Refund amount (${amount}) is greater than unrefunded amount on charge (${paid - done})`, 'amount', 'amount_too_large');
        const reason = str(p.reason);
        const r = build.refund({
          created: nowSeconds(),
          amount,
          currency: session.currency ?? 'gbp',
          paymentIntent: pi,
          reason: reason === 'duplicate' || reason === 'fraudulent' || reason === 'requested_by_customer' ? reason : null,
          metadata: metadataOf(p.metadata),
        });
        a.refunded.set(pi, done + amount);
        a.refunds.set(r.id, r);
        return r;
      },
    },
    {
      method: 'POST',
      path: /^\/v1\/webhook_endpoints$/,
      access: ['webhook', 'write'],
      run: (a, _m, p) => {
        const url = str(p.url);
        if (!url) throw invalid('Missing required param: url.', 'url');
        const enabled = list(p.enabled_events).filter((x): x is string => typeof x === 'string');
        if (enabled.length === 0) throw invalid('Missing required param: enabled_events.', 'enabled_events');
        const e = build.webhookEndpoint({
          created: nowSeconds(),
          url,
          enabledEvents: enabled,
          description: str(p.description) ?? null,
          metadata: metadataOf(p.metadata),
          secret: `whsec_${randomBytes(24).toString('hex')}`,
        });
        a.endpoints.set(e.id, e);
        return e;
      },
    },
    {
      method: 'GET',
      path: /^\/v1\/webhook_endpoints$/,
      access: ['webhook', 'read'],
      // Stripe shows an endpoint's secret only in the answer that created it.
      run: (a, _m, q) => page([...a.endpoints.values()].map(({ secret: _secret, ...e }) => e), q, '/v1/webhook_endpoints'),
    },
    {
      method: 'DELETE',
      path: /^\/v1\/webhook_endpoints\/([^/]+)$/,
      access: ['webhook', 'write'],
      run: (a, m) => {
        const id = m[1] ?? '';
        if (!a.endpoints.delete(id)) throw missing('webhook_endpoint', id);
        return { id, object: 'webhook_endpoint', deleted: true } satisfies Stripe.DeletedWebhookEndpoint;
      },
    },
    {
      method: 'GET',
      path: /^\/v1\/prices\/([^/]+)$/,
      access: ['price', 'read'],
      run: (a, m) => a.prices.get(m[1] ?? '') ?? (() => { throw missing('price', m[1] ?? ''); })(),
    },
    { method: 'GET', path: /^\/v1\/account$/, access: ['account', 'read'], run: (a) => build.account({ id: a.id, name: a.name, created: a.created }) },
    {
      method: 'GET',
      path: /^\/v1\/accounts\/([^/]+)$/,
      access: ['account', 'read'],
      run: (a, m) => {
        if (m[1] !== a.id) throw missing('account', m[1] ?? '');
        return build.account({ id: a.id, name: a.name, created: a.created });
      },
    },
  ];

  function allowed(acct: AccountState, [resource, level]: Access): boolean {
    if (!acct.permissions) return true;
    return acct.permissions.includes(`rak_${resource}_write`) || (level === 'read' && acct.permissions.includes(`rak_${resource}_read`));
  }

  function answer(res: http.ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
    res.writeHead(status, { 'Content-Type': 'application/json', 'Request-Id': build.stripeId('req'), ...headers });
    res.end(body);
  }

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', 'http://double');
    const method = req.method ?? 'GET';
    const query = qs.parse(url.search.slice(1), { depth: 10, arrayLimit: 100 }) as Params;
    const params = method === 'GET' || method === 'DELETE' ? query : (qs.parse(raw, { depth: 10, arrayLimit: 100 }) as Params);
    const idemHeader = req.headers['idempotency-key'];
    const idempotencyKey = typeof idemHeader === 'string' ? idemHeader : null;
    const entry: StripeRecordedRequest = { method, path: url.pathname, query, params, idempotencyKey, account: null, status: 0, replayed: false };
    requests.push(entry);
    for (const st of stalls) if (st.method === method && st.path === url.pathname) await st.released;
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      entry.status = status;
      answer(res, status, typeof body === 'string' ? body : JSON.stringify(body), headers);
    };
    const fail = (e: StripeApiError) => send(e.status, { error: e.body }, { 'Stripe-Should-Retry': 'false' });

    if (downMode === '503') {
      send(503, { error: { type: 'api_error', message: 'The Stripe API is temporarily unavailable (the double is down).' } });
      return;
    }
    const auth = req.headers.authorization ?? '';
    const key = auth.startsWith('Bearer ') ? auth.slice(7) : '';
    const acct = accounts.get(key);
    if (!acct) {
      send(401, {
        error: {
          type: 'invalid_request_error',
          message: key ? `Invalid API Key provided: ${mask(key)}` : "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY').",
        },
      });
      return;
    }
    entry.account = acct.id;
    expireDue(acct);

    if (method === 'POST') {
      if (!idempotencyKey || idempotencyKey.startsWith('stripe-node-retry-')) {
        const reason = idempotencyKey ? 'the SDK’s automatic key: the box must derive its own from its ids' : 'no Idempotency-Key';
        violations.push({ method, path: url.pathname, idempotencyKey, reason });
        fail(invalid(`The Stripe double refuses a POST with ${reason}.`, undefined, 'idempotency_key_required'));
        return;
      }
      const fingerprint = createHash('sha256').update(`${method} ${url.pathname}\n${raw}`).digest('hex');
      const seen = acct.idempotency.get(idempotencyKey);
      if (seen) {
        entry.replayed = true;
        if (seen.fingerprint !== fingerprint) {
          send(400, {
            error: {
              type: 'idempotency_error',
              message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`,
            },
          });
          return;
        }
        send(seen.status, seen.body, { 'Idempotent-Replayed': 'true' });
        return;
      }
      const done = run(acct, method, url.pathname, params);
      // Stripe saves the answer once the endpoint began its work, error or not; a request refused
      // by validation (400) saves nothing, so the same key may be sent again with mended params.
      if (done.status !== 400) acct.idempotency.set(idempotencyKey, { fingerprint, ...done });
      send(done.status, done.body, { 'Idempotency-Key': idempotencyKey });
      return;
    }
    const done = run(acct, method, url.pathname, params);
    send(done.status, done.body);
  }

  function run(acct: AccountState, method: string, path: string, params: Params): { status: number; body: string } {
    try {
      for (const r of routes) {
        if (r.method !== method) continue;
        const m = path.match(r.path);
        if (!m) continue;
        if (!allowed(acct, r.access)) {
          const need = `rak_${r.access[0]}_${r.access[1]}`;
          throw new StripeApiError(403, {
            type: 'invalid_request_error',
            message: `The provided key '${mask(acct.key)}' does not have the required permissions for this endpoint on account '${acct.id}'. Having the '${need}' permission would allow this request to continue.`,
          });
        }
        return { status: 200, body: JSON.stringify(r.run(acct, m, params)) };
      }
      throw new StripeApiError(404, { type: 'invalid_request_error', message: `Unrecognized request URL (${method}: ${path}). The Stripe double does not answer it.` });
    } catch (e) {
      if (e instanceof StripeApiError) return { status: e.status, body: JSON.stringify({ error: e.body }) };
      throw e;
    }
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      if (!res.headersSent) answer(res, 500, JSON.stringify({ error: { type: 'api_error', message: `stripe double: ${e instanceof Error ? e.message : String(e)}` } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const baseUrl = `http://127.0.0.1:${port}`;
  const closeServer = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });

  return {
    url: baseUrl,
    requests,
    violations,
    events,
    account({ key, name, permissions }) {
      if (accounts.has(key)) throw new Error(`stripe double: key ${mask(key)} already has an account`);
      const state: AccountState = {
        id: `acct_${randomBytes(8).toString('hex')}`,
        key,
        name,
        created: nowSeconds(),
        permissions: permissions ?? null,
        sessions: new Map(),
        sessionPlans: new Map(),
        customers: new Map(),
        subscriptions: new Map(),
        invoices: new Map(),
        refunds: new Map(),
        endpoints: new Map(),
        prices: new Map(),
        refunded: new Map(),
        idempotency: new Map(),
        invoiceCount: 0,
      };
      accounts.set(key, state);
      return {
        id: state.id,
        key,
        name,
        price({ unitAmount, currency = 'gbp', interval = 'month', nickname }) {
          const p = build.price({ created: nowSeconds(), currency, unitAmount, interval, nickname: nickname ?? null });
          state.prices.set(p.id, p);
          return p;
        },
        sessions: () => [...state.sessions.values()],
        customers: () => [...state.customers.values()],
        subscriptions: () => [...state.subscriptions.values()],
        invoices: () => [...state.invoices.values()],
        refunds: () => [...state.refunds.values()],
        webhookEndpoints: () => [...state.endpoints.values()],
      };
    },
    completeCheckout(sessionId) {
      const { acct, obj: session } = owning((a) => a.sessions, sessionId, 'checkout.session');
      expireDue(acct);
      if (session.status !== 'open') throw new Error(`stripe double: session ${sessionId} is ${session.status}, not open`);
      const made: Stripe.Event[] = [];
      session.status = 'complete';
      session.url = null;
      session.customer_details = {
        address: null,
        business_name: null,
        email: session.customer_email ?? 'caller@example.test',
        individual_name: null,
        name: 'Test Caller',
        phone: null,
        tax_exempt: 'none',
        tax_ids: [],
      };
      if (session.mode === 'payment') {
        session.payment_status = 'paid';
        session.payment_intent = build.stripeId('pi');
        made.push(emit('checkout.session.completed', session));
        return made;
      }
      const plan = acct.sessionPlans.get(session.id);
      if (!plan?.price) throw new Error(`stripe double: session ${sessionId} has no recurring price`);
      let customerId = typeof session.customer === 'string' ? session.customer : null;
      if (!customerId) {
        const c = build.customer({ created: nowSeconds(), email: session.customer_details.email, name: session.customer_details.name, metadata: {} });
        acct.customers.set(c.id, c);
        customerId = c.id;
        made.push(emit('customer.created', c));
      }
      const cus = acct.customers.get(customerId);
      if (!cus) throw new Error(`stripe double: no customer ${customerId}`);
      const sub = build.subscription({ created: nowSeconds(), customer: cus.id, price: plan.price, trialEnd: plan.trialEnd, metadata: plan.subscriptionMetadata });
      acct.subscriptions.set(sub.id, sub);
      const trialing = sub.status === 'trialing';
      const inv = newInvoice(acct, sub, trialing ? 0 : (plan.price.unit_amount ?? 0), true, 'subscription_create');
      session.customer = cus.id;
      session.subscription = sub.id;
      session.invoice = inv.id;
      session.payment_status = trialing ? 'no_payment_required' : 'paid';
      made.push(emit('customer.subscription.created', sub), emit('invoice.paid', inv), emit('checkout.session.completed', session));
      return made;
    },
    expireCheckout(sessionId) {
      return expireSession(owning((a) => a.sessions, sessionId, 'checkout.session').obj);
    },
    renew(subscriptionId, { pay }) {
      const { acct, obj: sub } = owning((a) => a.subscriptions, subscriptionId, 'subscription');
      if (sub.status === 'canceled') throw new Error(`stripe double: subscription ${subscriptionId} is canceled`);
      const item = sub.items.data[0];
      if (!item) throw new Error(`stripe double: subscription ${subscriptionId} has no item`);
      if (sub.cancel_at_period_end) return endSubscription(sub, 'cancellation_requested');
      const previous = { status: sub.status, trial_end: sub.trial_end, latest_invoice: sub.latest_invoice, items: structuredClone(sub.items) };
      item.current_period_start = item.current_period_end;
      item.current_period_end = build.addMonth(item.current_period_end);
      const reason: Stripe.Invoice.BillingReason = 'subscription_cycle';
      const inv = newInvoice(acct, sub, item.price.unit_amount ?? 0, pay, reason);
      sub.status = pay ? 'active' : 'past_due';
      const made: Stripe.Event[] = [pay ? emit('invoice.paid', inv) : emit('invoice.payment_failed', inv)];
      made.push(emit('customer.subscription.updated', sub, previous));
      return made;
    },
    stall(method, path) {
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      const st = { method, path, released };
      stalls.push(st);
      return {
        release() {
          stalls.splice(stalls.indexOf(st), 1);
          release();
        },
      };
    },
    async down(on, how = 'refused') {
      if (!on) {
        if (downMode === 'refused') await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
        downMode = null;
        return;
      }
      if (downMode === 'refused') return;
      downMode = how;
      if (how === 'refused') await closeServer();
    },
    event: makeEvent,
    async send(url, event, secret, sendOpts = {}) {
      const payload = JSON.stringify(event, null, 2);
      const signature =
        sendOpts.signature === undefined ? Stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp: sendOpts.created ?? nowSeconds() }) : sendOpts.signature;
      const res = await fetch(url, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json; charset=utf-8',
          'User-Agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
          ...(signature === null ? {} : { 'Stripe-Signature': signature }),
        },
        body: payload,
      });
      return { status: res.status, body: await res.text() };
    },
    async close() {
      if (downMode !== 'refused') await closeServer();
    },
  };
}
