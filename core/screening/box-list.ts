import { and, count, countDistinct, desc, eq, gt, gte, inArray, like, sql } from 'drizzle-orm';
import { NUISANCE_CLASSES } from '../../dialogue/summary/call-class.js';
import type { Db } from '../db/client.js';
import { tablesOf } from '../db/schema.js';
import { getThresholds } from './thresholds.js';
import { boxListed, type BoxThresholds } from './verdict.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** One entry as the admin sees it: the number and its counts, never a business or a word said. */
export interface BoxEntry {
  number: string;
  businesses: number;
  nuisanceBusinesses: number;
  listed: boolean;
  clearedAt: Date | null;
}

/**
 * Recounts one number's evidence and stores it with whether it is listed now. Only evidence
 * newer than the admin's clearing counts, so a cleared number comes back on fresh marks alone.
 * Idempotent: run after every mark, every nuisance call, every clearing.
 */
export async function refreshBoxEntry(db: Db, number: string, now: Date, thresholds?: BoxThresholds): Promise<void> {
  const { boxSpamNumbers, calls, spamMarks } = tablesOf(db);
  const t = thresholds ?? (await getThresholds(db));
  const existing = (await db.select().from(boxSpamNumbers).where(eq(boxSpamNumbers.number, number)).limit(1))[0];
  const since = existing?.clearedAt ?? new Date(0);
  const marks = (await db
    .select({ n: countDistinct(spamMarks.userId) })
    .from(spamMarks)
    .where(and(eq(spamMarks.number, number), eq(spamMarks.verdict, 'spam'), gt(spamMarks.markedAt, since))))[0]?.n ?? 0;
  const dayAgo = new Date(Math.max(now.getTime() - DAY_MS, since.getTime() + 1));
  // Calls hold the caller in E.164 (call-store.ts); calls_from_created_idx (from_number,
  // created_at) keeps this a range read of one number's day.
  const nuisance = (await db
    .select({ n: countDistinct(calls.userId) })
    .from(calls)
    .where(and(eq(calls.fromNumber, number), gte(calls.createdAt, dayAgo), eq(calls.screenedBy, 'summary'), inArray(calls.callClass, [...NUISANCE_CLASSES]))))[0]?.n ?? 0;
  if (!existing && marks === 0 && nuisance === 0) return;
  const row = { businesses: marks, nuisanceBusinesses: nuisance, listed: boxListed({ businesses: marks, nuisanceBusinesses: nuisance }, t), updatedAt: now };
  await db.insert(boxSpamNumbers).values({ number, ...row }).onConflictDoUpdate({ target: boxSpamNumbers.number, set: row });
}

/** The admin changed a threshold: every entry's `listed` follows at once (one UPDATE). */
export async function relistAll(db: Db, t: BoxThresholds, now: Date): Promise<void> {
  const { boxSpamNumbers } = tablesOf(db);
  await db
    .update(boxSpamNumbers)
    .set({ listed: sql`(${boxSpamNumbers.businesses} >= ${t.spamMarks} or ${boxSpamNumbers.nuisanceBusinesses} >= ${t.nuisanceBusinesses})`, updatedAt: now });
}

/** The admin clears an entry: off the list now; only marks and nuisance calls from now on count. False when there is none. */
export async function clearBoxEntry(db: Db, number: string, now: Date): Promise<boolean> {
  const { boxSpamNumbers } = tablesOf(db);
  const existing = (await db.select({ number: boxSpamNumbers.number }).from(boxSpamNumbers).where(eq(boxSpamNumbers.number, number)).limit(1))[0];
  if (!existing) return false;
  await db.update(boxSpamNumbers).set({ clearedAt: now, businesses: 0, nuisanceBusinesses: 0, listed: false, updatedAt: now }).where(eq(boxSpamNumbers.number, number));
  return true;
}

/** The admin's page of the list: listed first, then by the most businesses; `q` filters on the number's digits. */
export async function listBoxEntries(db: Db, opts: { limit: number; q?: string }): Promise<{ entries: BoxEntry[]; total: number; listed: number }> {
  const { boxSpamNumbers } = tablesOf(db);
  const where = opts.q ? like(boxSpamNumbers.number, `%${opts.q.replace(/[%_\\]/g, '')}%`) : undefined;
  const entries = await db
    .select({
      number: boxSpamNumbers.number,
      businesses: boxSpamNumbers.businesses,
      nuisanceBusinesses: boxSpamNumbers.nuisanceBusinesses,
      listed: boxSpamNumbers.listed,
      clearedAt: boxSpamNumbers.clearedAt,
    })
    .from(boxSpamNumbers)
    .where(where)
    .orderBy(desc(boxSpamNumbers.listed), desc(sql`${boxSpamNumbers.businesses} + ${boxSpamNumbers.nuisanceBusinesses}`), boxSpamNumbers.number)
    .limit(opts.limit);
  const [totals] = await db
    .select({ total: count(), listed: sql<number>`coalesce(sum(case when ${boxSpamNumbers.listed} then 1 else 0 end), 0)` })
    .from(boxSpamNumbers)
    .where(where);
  return { entries, total: totals?.total ?? 0, listed: Number(totals?.listed ?? 0) };
}
