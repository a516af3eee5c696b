// The operator's £39 a month (issue 59, BILLING=stripe; docs/payments.md "For operators: billing"):
// the Account Settings plan (view, checkout, cancel, resume), the admin's counts and revenue,
// Stripe's billing events, and the clock's part (a grace running out, reminders). Every Stripe
// call that writes carries an idempotency key made of the box's own ids. The account's switch
// is users.account_status, moved only by billing-rules.ts's decision on what Stripe stated.
import type Stripe from 'stripe';
import { and, between, eq } from 'drizzle-orm';
import type { ApiAdminBilling, ApiBilling } from '../../../contract/payments.js';
import type { SubscriptionStatus } from '../../../contract/enums.js';
import { SUBSCRIPTION_STATUSES } from '../../../contract/enums.js';
import { findUserById, updateUser } from '../../accounts/users.js';
import type { CoreDeps } from '../../deps.js';
import { tablesOf, type User } from '../../db/schema.js';
import { HttpError, conflict, forbidden, notFound } from '../../http/errors.js';
import { claimPeriod, periodOf } from '../../jobs/once-per-period.js';
import { brand } from '../../mail/brand.js';
import { DAY_MS, HOUR_MS, londonMonthStartUtc } from '../../time/london-time.js';
import type { StripeEventHandlers } from '../parts.js';
import { stripeClient } from '../stripe-client.js';
import { accountChange, billingBanner, checkoutTrialEnd, graceEndsAt, renewalReminderFor, REMINDER_DAYS, trialReminderFor, type SubscriptionFacts } from './billing-rules.js';
import {
  countByStatus,
  invoicesOf,
  ownerOfCustomer,
  revenueBetween,
  saveCustomer,
  saveSubscriptionState,
  subscriptionOf,
  subscriptionsWithCustomers,
  upsertInvoice,
  type SubscriptionRow,
  type SubscriptionState,
} from './billing-store.js';
import { money, renewalMail, trialEndingMail } from './reminder-mails.js';

type BillingConfig = NonNullable<CoreDeps['config']['stripe']['billing']>;
type Plan = NonNullable<ApiBilling['plan']>;

const DISABLED: ApiBilling = { enabled: false, plan: null, status: null, hasCard: false, trialEndsAt: null, nextPaymentAt: null, periodEndsAt: null, cancelAtPeriodEnd: false, graceEndsAt: null, banner: null, invoices: [] };
const LIVE: ReadonlySet<SubscriptionStatus> = new Set(['trialing', 'active', 'past_due']);
const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);
const fromUnix = (s: number | null | undefined) => (typeof s === 'number' ? new Date(s * 1000) : null);
const idOf = (x: string | { id: string } | null | undefined) => (typeof x === 'string' ? x : (x?.id ?? null));

/** Stripe could not be reached, or refused: a 503 in words the console shows; the line is never paused for it. */
function stripeTrouble(err: unknown): HttpError {
  const type = err && typeof err === 'object' && 'type' in err ? String((err as { type: unknown }).type) : '';
  if (type === 'StripeConnectionError' || type === 'StripeAPIError' || type === 'StripeRateLimitError') {
    return new HttpError(503, 'Stripe cannot be reached just now, so this could not be done. Your line keeps answering; please try again in a few minutes.');
  }
  return new HttpError(503, 'Stripe refused the request, so this could not be done. Your line keeps answering; please contact support.');
}

function subscriptionFacts(row: SubscriptionRow | undefined): SubscriptionFacts | null {
  if (!row?.status) return null;
  return { status: row.status, pastDueSince: row.pastDueSince, trialEnd: row.trialEnd, currentPeriodEnd: row.currentPeriodEnd, cancelAtPeriodEnd: row.cancelAtPeriodEnd };
}

/** Stripe's subscription as the box keeps it (the period's end sits on its item since API 2025-03-31). */
function stateOf(sub: Stripe.Subscription): SubscriptionState {
  const item = sub.items.data[0];
  const status = (SUBSCRIPTION_STATUSES as readonly string[]).includes(sub.status) ? (sub.status as SubscriptionStatus) : 'incomplete';
  return {
    subscriptionId: sub.id,
    status,
    pricePence: item?.price.unit_amount ?? null,
    currency: item?.price.currency ?? null,
    currentPeriodEnd: fromUnix(item?.current_period_end),
    trialEnd: fromUnix(sub.trial_end),
    cancelAtPeriodEnd: sub.cancel_at_period_end,
  };
}

export class BillingService {
  private client: Stripe | null = null;
  private plan: Plan | null = null;

  constructor(private readonly deps: CoreDeps) {}

  /** The webhook intake's handler for the operator's account (core/payments/parts.ts). */
  readonly billing: StripeEventHandlers['billing'] = (event) => this.handle(event);

  get settings(): BillingConfig | undefined {
    return this.deps.config.stripe.billing;
  }

  private stripe(settings: BillingConfig): Stripe {
    return (this.client ??= stripeClient(settings.secretKey, this.deps.config.stripe.apiBase));
  }

  private get db() {
    return this.deps.database.db;
  }

  /** The operator's price, retrieved once: a Stripe that cannot be reached shows no plan, and is asked again next time. */
  private async planOf(settings: BillingConfig): Promise<Plan | null> {
    if (this.plan) return this.plan;
    try {
      const price = await this.stripe(settings).prices.retrieve(settings.priceId, { expand: ['product'] });
      const product = typeof price.product === 'object' && 'name' in price.product ? price.product.name : null;
      this.plan = { name: product ?? price.nickname ?? 'Professional Plan', amountPence: price.unit_amount ?? 0, currency: price.currency, interval: price.recurring?.interval ?? 'month' };
    } catch (err) {
      this.deps.log.warn({ err: { type: (err as { type?: string }).type, message: (err as Error).message } }, 'billing: the price could not be read from Stripe');
    }
    return this.plan;
  }

  async view(user: User): Promise<ApiBilling> {
    const settings = this.settings;
    if (!settings) return DISABLED;
    const now = this.deps.now();
    const row = await subscriptionOf(this.db, user.id);
    const sub = subscriptionFacts(row);
    const live = sub?.status ? LIVE.has(sub.status) : false;
    const invoices = await invoicesOf(this.db, user.id);
    return {
      enabled: true,
      plan: await this.planOf(settings),
      status: sub?.status ?? null,
      hasCard: live,
      trialEndsAt: iso(sub?.status === 'trialing' ? sub.trialEnd : user.trialExpiresAt),
      nextPaymentAt: live && !sub?.cancelAtPeriodEnd ? iso(sub?.currentPeriodEnd) : null,
      periodEndsAt: live ? iso(sub?.currentPeriodEnd) : null,
      cancelAtPeriodEnd: sub?.cancelAtPeriodEnd ?? false,
      graceEndsAt: iso(graceEndsAt(sub, settings.graceDays)),
      banner: billingBanner(sub, user, now, settings.graceDays),
      invoices: invoices.map((i) => ({ id: i.id, amountPence: i.amountPence, currency: i.currency, status: i.status, hostedUrl: i.hostedUrl, date: i.createdAt.toISOString() })),
    };
  }

  /**
   * Where "Add a card" goes: Stripe Checkout in subscription mode for the account's one customer,
   * the trial carried over so nothing is charged before it ends. Past due: the unpaid invoice's
   * own page, where a new card pays it (a second subscription would charge twice).
   */
  async checkout(user: User): Promise<{ url: string }> {
    const settings = this.enabledFor(user);
    const now = this.deps.now();
    const row = await subscriptionOf(this.db, user.id);
    if (row?.status === 'past_due') {
      const open = (await invoicesOf(this.db, user.id)).find((i) => i.status === 'open' && i.hostedUrl);
      if (open?.hostedUrl) return { url: open.hostedUrl };
    }
    if (row?.status && LIVE.has(row.status)) throw conflict('A card is already on your plan.');
    const stripe = this.stripe(settings);
    try {
      let customerId = row?.customerId;
      if (!customerId) {
        const customer = await stripe.customers.create(
          { email: user.businessEmail ?? user.email, name: user.businessName ?? undefined, metadata: { user_id: String(user.id) } },
          { idempotencyKey: `billing-customer:${user.id}` },
        );
        customerId = customer.id;
        await saveCustomer(this.db, user.id, customerId, now);
      }
      const trialEnd = checkoutTrialEnd(user.trialExpiresAt, now);
      // The return pages only thank: the plan changes when Stripe's signed webhook says so.
      const account = `${this.deps.config.publicUrl}/dashboard/account`;
      const session = await stripe.checkout.sessions.create(
        {
          mode: 'subscription',
          customer: customerId,
          client_reference_id: String(user.id),
          line_items: [{ price: settings.priceId, quantity: 1 }],
          subscription_data: { metadata: { user_id: String(user.id) }, ...(trialEnd ? { trial_end: trialEnd } : {}) },
          metadata: { user_id: String(user.id) },
          success_url: `${account}?billing=added`,
          cancel_url: `${account}?billing=cancelled`,
        },
        // One session per account per hour: a double click reuses it; Stripe keeps a key 24 h.
        { idempotencyKey: `billing-checkout:${user.id}:${periodOf(now, HOUR_MS).getTime()}:${trialEnd ?? 'now'}` },
      );
      if (!session.url) throw new Error('Stripe made a Checkout Session without a URL');
      return { url: session.url };
    } catch (err) {
      this.deps.log.error({ err: { type: (err as { type?: string }).type, message: (err as Error).message }, userId: user.id }, 'billing: checkout failed');
      throw stripeTrouble(err);
    }
  }

  /** Cancel at the period's end (true) or take that back (false), until the period ends. */
  async setCancelAtPeriodEnd(user: User, cancel: boolean): Promise<ApiBilling> {
    const settings = this.enabledFor(user);
    const row = await subscriptionOf(this.db, user.id);
    if (!row?.subscriptionId || !row.status || !LIVE.has(row.status)) throw conflict(cancel ? 'There is no plan to cancel.' : 'There is no plan to resume.');
    try {
      const updated = await this.stripe(settings).subscriptions.update(
        row.subscriptionId,
        { cancel_at_period_end: cancel },
        // The stored row's version: a double click repeats the request, a later change is a new one.
        { idempotencyKey: `billing-${cancel ? 'cancel' : 'resume'}:${row.subscriptionId}:${row.updatedAt.getTime()}` },
      );
      const now = this.deps.now();
      await saveSubscriptionState(this.db, user.id, stateOf(updated), now, now);
    } catch (err) {
      this.deps.log.error({ err: { type: (err as { type?: string }).type, message: (err as Error).message }, userId: user.id }, 'billing: changing the plan failed');
      throw stripeTrouble(err);
    }
    return this.view((await findUserById(this.db, user.id)) ?? user);
  }

  async admin(): Promise<ApiAdminBilling> {
    const settings = this.settings;
    const counts = settings ? await countByStatus(this.db) : new Map<string, number>();
    const n = (...s: SubscriptionStatus[]) => s.reduce((sum, k) => sum + (counts.get(k) ?? 0), 0);
    const monthStart = londonMonthStartUtc(this.deps.now().getTime());
    // The next London month starts within 32 days of this one's start, whatever its length.
    const nextMonth = londonMonthStartUtc(monthStart + 32 * DAY_MS);
    const revenue = settings ? await revenueBetween(this.db, new Date(monthStart), new Date(nextMonth)) : [];
    const currency = this.plan?.currency ?? revenue[0]?.currency ?? 'gbp';
    return {
      enabled: Boolean(settings),
      trialling: n('trialing'),
      active: n('active'),
      pastDue: n('past_due', 'unpaid'),
      cancelled: n('canceled'),
      monthlyRevenuePence: revenue.find((r) => r.currency === currency)?.pence ?? 0,
      currency,
    };
  }

  /**
   * One event from the operator's account (StripeEventHandlers.billing). Each reads the object's
   * current state from Stripe, so a repeat or an older event arriving late applies today's state,
   * never yesterday's; a Stripe that cannot be reached throws, the webhook answers 500 and Stripe
   * sends it again later. Returns the owner it concerned.
   */
  async handle(event: Stripe.Event): Promise<number | null> {
    const settings = this.settings;
    if (!settings) return null;
    const stripe = this.stripe(settings);
    const eventAt = new Date(event.created * 1000);
    switch (event.type) {
      case 'checkout.session.completed': {
        const session = event.data.object;
        const subscriptionId = idOf(session.subscription);
        const customerId = idOf(session.customer);
        if (session.mode !== 'subscription' || !subscriptionId || !customerId) return null;
        const userId = await ownerOfCustomer(this.db, customerId);
        if (userId === undefined) return null;
        await this.sync(userId, await stripe.subscriptions.retrieve(subscriptionId), eventAt);
        return userId;
      }
      case 'customer.subscription.created':
      case 'customer.subscription.updated':
      case 'customer.subscription.deleted': {
        const sub = event.data.object;
        const userId = await ownerOfCustomer(this.db, idOf(sub.customer) ?? '');
        if (userId === undefined) return null;
        await this.sync(userId, await stripe.subscriptions.retrieve(sub.id), eventAt);
        return userId;
      }
      case 'invoice.paid':
      case 'invoice.payment_failed': {
        const stale = event.data.object;
        const userId = await ownerOfCustomer(this.db, idOf(stale.customer) ?? '');
        if (userId === undefined || !stale.id) return null;
        const invoice = await stripe.invoices.retrieve(stale.id);
        await upsertInvoice(this.db, {
          id: stale.id,
          userId,
          amountPence: invoice.status === 'paid' ? invoice.amount_paid : invoice.amount_due,
          currency: invoice.currency,
          status: invoice.status ?? 'draft',
          hostedUrl: invoice.hosted_invoice_url ?? null,
          periodStart: fromUnix(invoice.period_start),
          paidAt: fromUnix(invoice.status_transitions.paid_at),
          createdAt: fromUnix(invoice.created) ?? eventAt,
        });
        const subscriptionId = idOf(invoice.parent?.subscription_details?.subscription);
        if (subscriptionId) await this.sync(userId, await stripe.subscriptions.retrieve(subscriptionId), eventAt);
        return userId;
      }
      default:
        return null;
    }
  }

  private async sync(userId: number, sub: Stripe.Subscription, eventAt: Date): Promise<void> {
    const row = await subscriptionOf(this.db, userId);
    // An old subscription's news (one that ended before a new card was added) must not overwrite the current one.
    if (row?.subscriptionId && row.subscriptionId !== sub.id && row.status && LIVE.has(row.status) && !LIVE.has(stateOf(sub).status)) return;
    await saveSubscriptionState(this.db, userId, stateOf(sub), eventAt, this.deps.now());
    await this.followTheMoney(userId);
  }

  /** Applies billing-rules' decision to one account; returns whether it changed. */
  private async followTheMoney(userId: number): Promise<boolean> {
    const settings = this.settings;
    const user = await findUserById(this.db, userId);
    if (!settings || !user || user.role !== 'customer') return false;
    const change = accountChange(subscriptionFacts(await subscriptionOf(this.db, userId)), user, this.deps.now(), settings.graceDays);
    if (!change) return false;
    await updateUser(this.db, userId, change);
    this.deps.log.info({ userId, ...change }, 'billing: the account follows its subscription');
    return true;
  }

  /**
   * The clock's part, from housekeeping (once per period across cores): grace periods that have
   * run out pause their lines (the fact, past due, is Stripe's; only the days are counted here),
   * and each reminder is mailed once, claimed per account and per the day it is about.
   */
  async sweep(): Promise<{ changed: number; reminders: number }> {
    const settings = this.settings;
    if (!settings) return { changed: 0, reminders: 0 };
    const now = this.deps.now();
    const b = brand(this.deps.config);
    let changed = 0;
    let reminders = 0;
    const remind = async (kind: string, user: User, about: Date, mail: () => Parameters<CoreDeps['mailer']['send']>[0]) => {
      if (!(await claimPeriod(this.db, `billing-${kind}-reminder:${user.id}`, about, now))) return;
      try {
        await this.deps.mailer.send(mail());
        reminders++;
      } catch (err) {
        this.deps.log.error({ err, userId: user.id, kind }, 'billing: a reminder could not be sent');
      }
    };
    for (const row of await subscriptionsWithCustomers(this.db)) {
      if (await this.followTheMoney(row.userId)) changed++;
      const on = renewalReminderFor(subscriptionFacts(row), now);
      const user = on ? await findUserById(this.db, row.userId) : undefined;
      if (on && user?.accountStatus === 'active') {
        const amount = row.pricePence !== null && row.currency ? money(row.pricePence, row.currency) : null;
        await remind('renewal', user, on, () => renewalMail(b, user.email, user.businessName, on, amount));
      }
    }
    const { users } = tablesOf(this.db);
    const ending = await this.db
      .select()
      .from(users)
      .where(and(eq(users.role, 'customer'), eq(users.accountStatus, 'active'), between(users.trialExpiresAt, now, new Date(now.getTime() + REMINDER_DAYS * DAY_MS))));
    for (const user of ending) {
      const ends = trialReminderFor(subscriptionFacts(await subscriptionOf(this.db, user.id)), user, now, settings.graceDays);
      if (ends) await remind('trial', user, ends, () => trialEndingMail(b, user.email, user.businessName, ends));
    }
    return { changed, reminders };
  }

  /** The settings, for a business owner's own request; otherwise a 4xx in words. */
  private enabledFor(user: User): BillingConfig {
    if (user.role !== 'customer') throw forbidden('Plans and cards belong to business accounts.');
    const settings = this.settings;
    if (!settings) throw notFound('Paying by card is not set up on this box: please contact support.');
    return settings;
  }
}
