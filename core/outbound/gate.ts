import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { tablesOf } from '../db/schema.js';
import { outboundPermit, type OutboundPermit, type OutboundPolicy, type OutboundRefusal } from './permit.js';
import { outboundSecondsToday } from './store.js';

/**
 * May the appliance call `number` for this owner now? Read from the database as it stands
 * (account, today's placed minutes): asked when a number is tested and again when it is
 * dialled, since a trial can expire and the cap fill during a call.
 */
export async function outboundRefusalNow(db: Db, userId: number, number: string, policy: OutboundPolicy, now: Date): Promise<OutboundRefusal | null> {
  return (await outboundPermitNow(db, userId, number, policy, now)).refusal;
}

/** outboundRefusalNow, and when the call may be placed, how long it may last once answered (asked when it is dialled). */
export async function outboundPermitNow(db: Db, userId: number, number: string, policy: OutboundPolicy, now: Date): Promise<OutboundPermit> {
  const { users } = tablesOf(db);
  const owner = (await db.select({ accountStatus: users.accountStatus, trialExpiresAt: users.trialExpiresAt }).from(users).where(eq(users.id, userId)).limit(1))[0];
  if (!owner) return { refusal: { kind: 'inactive', message: 'No such account.' } };
  return outboundPermit({ owner, number, usedSeconds: await outboundSecondsToday(db, userId, now), policy, now });
}
