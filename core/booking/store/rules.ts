import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { tablesOf } from '../../db/schema.js';
import { loadCallHandling } from '../../call-handling/store.js';
import { BOOKING_DEFAULTS, type BookingRules } from '../rules/booking-rules.js';

/** What the owner stored (for the API), defaults filled in; hours null = the call-handling hours. */
export async function storedRules(db: Db, userId: number): Promise<{ hours: BookingRules['hours'] | null; noticeMinutes: number; horizonDays: number; dailyCap: number | null }> {
  const { bookingRules } = tablesOf(db);
  const row = (await db.select().from(bookingRules).where(eq(bookingRules.userId, userId)).limit(1))[0];
  return {
    hours: row?.hours ?? null,
    noticeMinutes: row?.noticeMinutes ?? BOOKING_DEFAULTS.noticeMinutes,
    horizonDays: row?.horizonDays ?? BOOKING_DEFAULTS.horizonDays,
    dailyCap: row ? row.dailyCap : BOOKING_DEFAULTS.dailyCap,
  };
}

/** The owner's rules: their stored ones over the defaults; hours and holidays from call handling unless set. */
export async function loadRules(db: Db, userId: number): Promise<BookingRules> {
  const [stored, handling] = [await storedRules(db, userId), await loadCallHandling(db, userId)];
  return { ...stored, hours: stored.hours ?? handling.hours, holidayNations: handling.holidayNations };
}

export async function saveRules(db: Db, userId: number, rules: Pick<BookingRules, 'noticeMinutes' | 'horizonDays' | 'dailyCap'> & { hours: BookingRules['hours'] | null }, now: Date): Promise<void> {
  const { bookingRules } = tablesOf(db);
  const values = { ...rules, updatedAt: now };
  await db.insert(bookingRules).values({ userId, ...values }).onConflictDoUpdate({ target: bookingRules.userId, set: values });
}
