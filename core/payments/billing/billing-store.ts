// The operator's subscriptions and invoices as stored (billing_subscriptions, billing_invoices):
// every query scoped by the owner's id, every write an upsert, so an event applied twice stores once.
import { and, desc, eq, gte, isNotNull, lt, sql } from 'drizzle-orm';
import type { SubscriptionStatus } from '../../../contract/enums.js';
import type { Db } from '../../db/client.js';
import { tablesOf } from '../../db/schema.js';

export type SubscriptionRow = ReturnType<typeof tablesOf>['billingSubscriptions']['$inferSelect'];
export type InvoiceRow = ReturnType<typeof tablesOf>['billingInvoices']['$inferSelect'];

/** What Stripe said of a subscription, as the box keeps it. */
export interface SubscriptionState {
  subscriptionId: string;
  status: SubscriptionStatus;
  pricePence: number | null;
  currency: string | null;
  currentPeriodEnd: Date | null;
  trialEnd: Date | null;
  cancelAtPeriodEnd: boolean;
}

export async function subscriptionOf(db: Db, userId: number): Promise<SubscriptionRow | undefined> {
  const { billingSubscriptions } = tablesOf(db);
  return (await db.select().from(billingSubscriptions).where(eq(billingSubscriptions.userId, userId)).limit(1))[0];
}

export async function ownerOfCustomer(db: Db, customerId: string): Promise<number | undefined> {
  const { billingSubscriptions } = tablesOf(db);
  return (await db.select({ userId: billingSubscriptions.userId }).from(billingSubscriptions).where(eq(billingSubscriptions.customerId, customerId)).limit(1))[0]?.userId;
}

/** The account's Stripe customer, remembered the moment it is made (a second checkout reuses it). */
export async function saveCustomer(db: Db, userId: number, customerId: string, now: Date): Promise<void> {
  const { billingSubscriptions } = tablesOf(db);
  await db.insert(billingSubscriptions).values({ userId, customerId, updatedAt: now }).onConflictDoUpdate({ target: billingSubscriptions.userId, set: { customerId, updatedAt: now } });
}

/**
 * Stores Stripe's current word on the subscription. `past_due_since` starts the first time it is
 * seen past due and is kept while it stays so (a repeat does not restart the grace); any other
 * status clears it. `eventAt`: the newest event that led here.
 */
export async function saveSubscriptionState(db: Db, userId: number, state: SubscriptionState, eventAt: Date, now: Date): Promise<SubscriptionRow> {
  const { billingSubscriptions } = tablesOf(db);
  const before = await subscriptionOf(db, userId);
  const pastDueSince = state.status === 'past_due' ? (before?.status === 'past_due' && before.pastDueSince ? before.pastDueSince : now) : null;
  const newest = before?.eventAt && before.eventAt.getTime() > eventAt.getTime() ? before.eventAt : eventAt;
  return (await db
    .update(billingSubscriptions)
    .set({ ...state, pastDueSince, eventAt: newest, updatedAt: now })
    .where(eq(billingSubscriptions.userId, userId))
    .returning())[0]!;
}

export async function upsertInvoice(db: Db, row: InvoiceRow): Promise<void> {
  const { billingInvoices } = tablesOf(db);
  const { id: _id, userId: _userId, createdAt: _createdAt, ...changing } = row;
  await db.insert(billingInvoices).values(row).onConflictDoUpdate({ target: billingInvoices.id, set: changing });
}

export async function invoicesOf(db: Db, userId: number, limit = 24): Promise<InvoiceRow[]> {
  const { billingInvoices } = tablesOf(db);
  return db.select().from(billingInvoices).where(eq(billingInvoices.userId, userId)).orderBy(desc(billingInvoices.createdAt), desc(billingInvoices.id)).limit(limit);
}

/** Subscriptions the clock alone can move on (a grace period running out) or remind about. */
export async function subscriptionsWithCustomers(db: Db): Promise<SubscriptionRow[]> {
  const { billingSubscriptions } = tablesOf(db);
  return db.select().from(billingSubscriptions).where(isNotNull(billingSubscriptions.status));
}

export async function countByStatus(db: Db): Promise<Map<string, number>> {
  const { billingSubscriptions } = tablesOf(db);
  const rows = await db
    .select({ status: billingSubscriptions.status, n: sql<number>`count(*)` })
    .from(billingSubscriptions)
    .where(isNotNull(billingSubscriptions.status))
    .groupBy(billingSubscriptions.status);
  return new Map(rows.map((r) => [r.status ?? '', Number(r.n)]));
}

/** Invoices paid in [from, to), summed per currency. */
export async function revenueBetween(db: Db, from: Date, to: Date): Promise<Array<{ currency: string; pence: number }>> {
  const { billingInvoices } = tablesOf(db);
  const rows = await db
    .select({ currency: billingInvoices.currency, pence: sql<number>`coalesce(sum(${billingInvoices.amountPence}), 0)` })
    .from(billingInvoices)
    .where(and(eq(billingInvoices.status, 'paid'), gte(billingInvoices.paidAt, from), lt(billingInvoices.paidAt, to)))
    .groupBy(billingInvoices.currency);
  return rows.map((r) => ({ currency: r.currency, pence: Number(r.pence) }));
}
