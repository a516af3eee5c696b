import { and, asc, eq, isNull } from 'drizzle-orm';
import type { CallHandlingSettings } from '../../contract/call-handling.js';
import type { Db } from '../db/client.js';
import { tablesOf } from '../db/schema.js';
import { defaultCallHandling } from './defaults.js';
import type { TransferGuard } from './validate.js';

/**
 * The owner's call handling as the call side uses it (one indexed read by primary key); an
 * owner who never saved any gets the defaults.
 */
export async function loadCallHandling(db: Db, userId: number): Promise<CallHandlingSettings> {
  const { callHandling } = tablesOf(db);
  const row = (await db.select().from(callHandling).where(eq(callHandling.userId, userId)).limit(1))[0];
  if (!row) return defaultCallHandling();
  return {
    transferNumber: row.transferNumber,
    transferTimeoutSeconds: row.transferTimeoutSeconds,
    hoursEnabled: row.hoursEnabled,
    hours: row.hours,
    holidayNations: row.holidayNations,
    openRingFirst: row.openRingFirst,
    closedMode: row.closedMode,
    closedRingFirst: row.closedRingFirst,
    closedGreeting: row.closedGreeting,
    blockList: row.blockList,
    vipList: row.vipList,
    withheld: row.withheld,
    callBacksBy: row.callBacksBy,
    callBackAfterMinutes: row.callBackAfterMinutes,
  };
}

export async function saveCallHandling(db: Db, userId: number, settings: CallHandlingSettings, now: Date): Promise<void> {
  const { callHandling } = tablesOf(db);
  const values = { ...settings, updatedAt: now };
  await db.insert(callHandling)
    .values({ userId, ...values })
    .onConflictDoUpdate({ target: callHandling.userId, set: values });
}

/** The lines a transfer must not ring: the owner's own business phone and every DID the appliance holds. */
export async function transferGuard(db: Db, userId: number, outboundAllow: TransferGuard['outboundAllow']): Promise<TransferGuard> {
  const { phoneNumbers, users } = tablesOf(db);
  const owner = (await db.select({ phoneNumber: users.phoneNumber }).from(users).where(eq(users.id, userId)).limit(1))[0];
  const dids = await db.select({ n: phoneNumbers.phoneNumber }).from(phoneNumbers).where(isNull(phoneNumbers.releasedAt));
  return { ownerPhone: owner?.phoneNumber ?? null, applianceNumbers: dids.map((d) => d.n), outboundAllow };
}

/** The owner's own appliance number (their oldest active DID): a test transfer's caller ID. */
export async function ownerDid(db: Db, userId: number): Promise<string | undefined> {
  const { phoneNumbers } = tablesOf(db);
  return (await db
    .select({ did: phoneNumbers.phoneNumber })
    .from(phoneNumbers)
    .where(and(eq(phoneNumbers.userId, userId), isNull(phoneNumbers.releasedAt)))
    .orderBy(asc(phoneNumbers.assignedAt), asc(phoneNumbers.id)).limit(1))[0]?.did;
}
