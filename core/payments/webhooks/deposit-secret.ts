import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { tablesOf } from '../../db/schema.js';
import { unseal } from '../../booking/calendars/secret-box.js';

/**
 * The signing secret of the endpoint the box made on an owner's Stripe account, sealed at rest
 * with the booking seal key like the CalDAV password; null when the owner has no such endpoint,
 * or when the secret was sealed under another key (BOOKING_SECRET changed: Stripe must be
 * connected again).
 */
export async function depositWebhookSecret(db: Db, sealKey: Buffer, userId: number): Promise<{ secret: string } | { missing: 'connection' | 'unreadable' }> {
  const { stripeConnections } = tablesOf(db);
  const row = (await db.select({ sealed: stripeConnections.webhookSecretSealed }).from(stripeConnections).where(eq(stripeConnections.userId, userId)).limit(1))[0];
  if (!row?.sealed) return { missing: 'connection' };
  try {
    return { secret: unseal(sealKey, row.sealed) };
  } catch {
    return { missing: 'unreadable' };
  }
}
