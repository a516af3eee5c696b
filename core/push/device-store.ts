import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { tablesOf, type PushSubscriptionRow } from '../db/schema.js';
import type { PreferencesChange, SubscribeInput } from './validate.js';

// The devices of one sign-in (issue 54). Every query is scoped by the business (user_id) and
// the sign-in whose device it is (login_user_id) in SQL: another business, or a team member's
// own phone, is simply not found.

/** Who is asking: the business, the sign-in (the owner's own, or a staff member's), the staff row when staff. */
export interface DeviceOwner {
  userId: number;
  loginUserId: number;
  staffId: number | null;
}

const mine = (db: Db, who: DeviceOwner) => {
  const { pushSubscriptions: s } = tablesOf(db);
  return and(eq(s.userId, who.userId), eq(s.loginUserId, who.loginUserId));
};

export async function listDevices(db: Db, who: DeviceOwner): Promise<PushSubscriptionRow[]> {
  const { pushSubscriptions: s } = tablesOf(db);
  return await db.select().from(s).where(mine(db, who)).orderBy(s.id);
}

export async function findDevice(db: Db, who: DeviceOwner, id: number): Promise<PushSubscriptionRow | undefined> {
  const { pushSubscriptions: s } = tablesOf(db);
  return (await db.select().from(s).where(and(eq(s.id, id), mine(db, who))).limit(1))[0];
}

/**
 * Saves a browser's subscription. The endpoint is the device: subscribing it again (new keys,
 * another sign-in on the same browser) updates that row and keeps its preferences, so a device
 * is never listed twice.
 */
export async function saveDevice(db: Db, who: DeviceOwner, input: SubscribeInput, now: Date): Promise<{ device: PushSubscriptionRow; created: boolean }> {
  const { pushSubscriptions: s } = tablesOf(db);
  const existing = (await db.select({ id: s.id }).from(s).where(eq(s.endpoint, input.endpoint)).limit(1))[0];
  const fields = { userId: who.userId, loginUserId: who.loginUserId, staffId: who.staffId, p256dh: input.p256dh, auth: input.auth, name: input.name, updatedAt: now };
  if (existing) {
    const [row] = await db.update(s).set(fields).where(eq(s.id, existing.id)).returning();
    return { device: row!, created: false };
  }
  const [row] = await db
    .insert(s)
    .values({ ...fields, endpoint: input.endpoint })
    // Two tabs of one browser subscribing at once: the second updates the first's row.
    .onConflictDoUpdate({ target: s.endpoint, set: fields })
    .returning();
  return { device: row!, created: true };
}

export async function updateDevice(db: Db, who: DeviceOwner, id: number, change: PreferencesChange, now: Date): Promise<PushSubscriptionRow | undefined> {
  const { pushSubscriptions: s } = tablesOf(db);
  const [row] = await db.update(s).set({ ...change, updatedAt: now }).where(and(eq(s.id, id), mine(db, who))).returning();
  return row;
}

export async function removeDevice(db: Db, who: DeviceOwner, id: number): Promise<boolean> {
  const { pushSubscriptions: s } = tablesOf(db);
  return (await db.delete(s).where(and(eq(s.id, id), mine(db, who))).returning({ id: s.id })).length === 1;
}

/** The owner's delayed-text setting: minutes, or null (texts go as ever). */
export async function loadTextDelay(db: Db, userId: number): Promise<number | null> {
  const { pushSettings } = tablesOf(db);
  return (await db.select({ m: pushSettings.textDelayMinutes }).from(pushSettings).where(eq(pushSettings.userId, userId)).limit(1))[0]?.m ?? null;
}

export async function saveTextDelay(db: Db, userId: number, minutes: number | null, now: Date): Promise<void> {
  const { pushSettings } = tablesOf(db);
  await db
    .insert(pushSettings)
    .values({ userId, textDelayMinutes: minutes, updatedAt: now })
    .onConflictDoUpdate({ target: pushSettings.userId, set: { textDelayMinutes: minutes, updatedAt: now } });
}
