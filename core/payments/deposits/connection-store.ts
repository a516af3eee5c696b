import { and, count, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { tablesOf, type Tables } from '../../db/schema.js';
import { seal, unseal } from '../../booking/calendars/secret-box.js';
import type { ApiStripeConnection } from '../../../contract/payments.js';
import { isFullSecretKey } from './rules.js';

// The owner's Stripe connection at rest: the key and the webhook's signing secret sealed with
// booking's seal key (as the CalDAV password is), never returned; the console sees keyEnding only.

export type ConnectionRow = Tables['stripeConnections']['$inferSelect'];

export async function connectionRow(db: Db, userId: number): Promise<ConnectionRow | undefined> {
  const { stripeConnections } = tablesOf(db);
  return (await db.select().from(stripeConnections).where(eq(stripeConnections.userId, userId)).limit(1))[0];
}

export function connectionView(row: ConnectionRow | undefined, sealKey: Buffer): ApiStripeConnection {
  if (!row) return { connected: false, accountLabel: null, livemode: false, keyEnding: null, fullKey: false, depositPolicy: null, refundOnCallerCancel: true, testedAt: null };
  let ending: string | null;
  let fullKey = false;
  try {
    const key = unseal(sealKey, row.secretKeySealed);
    ending = key.slice(-4);
    fullKey = isFullSecretKey(key);
  } catch {
    // Sealed under another BOOKING_SECRET: the owner must paste the key again.
    ending = null;
  }
  return {
    connected: row.testedAt !== null && ending !== null,
    accountLabel: row.accountLabel,
    livemode: row.livemode,
    keyEnding: ending,
    fullKey,
    depositPolicy: row.depositPolicy,
    refundOnCallerCancel: row.refundOnCallerCancel,
    testedAt: row.testedAt?.toISOString() ?? null,
  };
}

export interface ConnectionUpdate {
  secretKey?: string;
  depositPolicy?: string | null;
  refundOnCallerCancel?: boolean;
}

/** Saves what was sent; a new key is untested until "Test connection" (deposits wait for it). */
export async function saveConnection(db: Db, sealKey: Buffer, userId: number, u: ConnectionUpdate, livemode: boolean | undefined, now: Date): Promise<void> {
  const { stripeConnections } = tablesOf(db);
  const set: Partial<ConnectionRow> = { updatedAt: now };
  if (u.secretKey !== undefined) Object.assign(set, { secretKeySealed: seal(sealKey, u.secretKey), livemode: livemode ?? false, testedAt: null, accountLabel: null });
  if (u.depositPolicy !== undefined) set.depositPolicy = u.depositPolicy?.trim() || null;
  if (u.refundOnCallerCancel !== undefined) set.refundOnCallerCancel = u.refundOnCallerCancel;
  const existing = await connectionRow(db, userId);
  if (existing) await db.update(stripeConnections).set(set).where(eq(stripeConnections.userId, userId));
  else await db.insert(stripeConnections).values({ userId, secretKeySealed: set.secretKeySealed!, ...set, updatedAt: now });
}

export async function markTested(db: Db, userId: number, set: { accountLabel: string | null; webhookEndpointId: string; webhookSecretSealed: string | null }, now: Date): Promise<void> {
  const { stripeConnections } = tablesOf(db);
  await db.update(stripeConnections).set({ ...set, ...(set.webhookSecretSealed === null ? { webhookSecretSealed: undefined } : {}), testedAt: now, updatedAt: now }).where(eq(stripeConnections.userId, userId));
}

export async function deleteConnection(db: Db, userId: number): Promise<void> {
  const { stripeConnections } = tablesOf(db);
  await db.delete(stripeConnections).where(eq(stripeConnections.userId, userId));
}

/** Bookings whose pay link is out: disconnecting now would leave them unpayable and unreleasable. */
export async function awaitingCount(db: Db, userId: number): Promise<number> {
  const { bookings } = tablesOf(db);
  // A booking moved on left its 'awaiting' columns behind as history: the new one is what waits.
  const [r] = await db.select({ n: count() }).from(bookings).where(and(eq(bookings.userId, userId), eq(bookings.depositState, 'awaiting'), isNull(bookings.movedToId)));
  return r?.n ?? 0;
}
