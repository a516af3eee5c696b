import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { tablesOf, type User } from '../../db/schema.js';
import type { Channel } from '../../notify/gateway.js';

// The owner told of a booking request or a caller's cancellation: one notifications row per
// text, written before the send and settled after it, so a failure is on record.

export async function ownerToTell(db: Db, ownerId: number): Promise<User | undefined> {
  const { users } = tablesOf(db);
  return (await db.select().from(users).where(eq(users.id, ownerId)).limit(1))[0];
}

/** The row a text to the owner is recorded in before it goes; its id settles it. */
export async function recordOwnerNotice(db: Db, n: { ownerId: number; channel: Channel; to: string; body: string }): Promise<number> {
  const { notifications } = tablesOf(db);
  return (await db.insert(notifications).values({ userId: n.ownerId, channel: n.channel, kind: 'booking', to: n.to, body: n.body, status: 'sending' }).returning({ id: notifications.id }))[0]!.id;
}

export async function settleOwnerNotice(db: Db, id: number, outcome: { status: 'sent'; providerId: string } | { status: 'failed'; error: string }): Promise<void> {
  const { notifications } = tablesOf(db);
  await db.update(notifications).set(outcome).where(eq(notifications.id, id));
}
