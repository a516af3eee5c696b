import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { tablesOf } from '../db/schema.js';
import { DEFAULT_THRESHOLDS, type BoxThresholds } from './verdict.js';

const KEY = 'screening';

export async function getThresholds(db: Db): Promise<BoxThresholds> {
  const { appSettings } = tablesOf(db);
  const row = (await db.select().from(appSettings).where(eq(appSettings.key, KEY)).limit(1))[0];
  return row ? { ...DEFAULT_THRESHOLDS, ...(row.value as Partial<BoxThresholds>) } : DEFAULT_THRESHOLDS;
}

export async function setThresholds(db: Db, t: BoxThresholds, now: Date): Promise<void> {
  const { appSettings } = tablesOf(db);
  await db.insert(appSettings).values({ key: KEY, value: t, updatedAt: now }).onConflictDoUpdate({ target: appSettings.key, set: { value: t, updatedAt: now } });
}
