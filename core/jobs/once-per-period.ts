import { lt } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { tablesOf } from '../db/schema.js';

/**
 * Cron work that must run once however many cores share the database (housekeeping,
 * retention, backups): every core's node-cron fires it, and the first to claim the period
 * runs it while the others skip. A claim is one conditional upsert on app_settings (key
 * `run:<task>`, updated_at = the period's start), atomic on SQLite and PostgreSQL alike, so
 * no lock is held while the work runs and a core that dies mid-run costs only that period.
 */
export async function claimPeriod(db: Db, task: string, periodStart: Date, now: Date): Promise<boolean> {
  const { appSettings } = tablesOf(db);
  const value = { periodStart: periodStart.toISOString(), claimedAt: now.toISOString() };
  const claimed = await db
    .insert(appSettings)
    .values({ key: `run:${task}`, value, updatedAt: periodStart })
    .onConflictDoUpdate({ target: appSettings.key, set: { value, updatedAt: periodStart }, setWhere: lt(appSettings.updatedAt, periodStart) })
    .returning({ key: appSettings.key });
  return claimed.length > 0;
}

/** The start of the fixed-length period `t` falls in (periods counted from the epoch). */
export function periodOf(t: Date, periodMs: number): Date {
  return new Date(Math.floor(t.getTime() / periodMs) * periodMs);
}
