import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { preparedPerDb } from '../db/prepared.js';
import { tablesOf } from '../db/schema.js';
import { DEFAULT_THRESHOLDS, type BoxThresholds } from './verdict.js';

const KEY = 'screening';

// Read before answering a call (lookup.ts): prepared once, like the lookup itself.
const statements = preparedPerDb('screening-thresholds', (db, { appSettings }) => ({
  row: db.select({ value: appSettings.value }).from(appSettings).where(eq(appSettings.key, sql.placeholder('key'))).limit(1),
}));

export async function getThresholds(db: Db): Promise<BoxThresholds> {
  const stored = (await statements(db).row.execute({ key: KEY }))[0]?.value as Partial<BoxThresholds> | undefined;
  // A value stored before issue 53 also holds the retired nuisance threshold: only spamMarks is read.
  return { spamMarks: stored?.spamMarks ?? DEFAULT_THRESHOLDS.spamMarks };
}

export async function setThresholds(db: Db, t: BoxThresholds, now: Date): Promise<void> {
  const { appSettings } = tablesOf(db);
  const value = { spamMarks: t.spamMarks };
  await db.insert(appSettings).values({ key: KEY, value, updatedAt: now }).onConflictDoUpdate({ target: appSettings.key, set: { value, updatedAt: now } });
}
