import { and, count, desc, eq, like, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { tablesOf } from '../db/schema.js';
import { countingMark, evidenceJoins } from './evidence.js';
import { boxListed, markStanding, markWindowStart, type BoxThresholds, type MarkStanding } from './verdict.js';

/** One number as the admin's list shows it: how many businesses' marks count now, never which. */
export interface BoxEntry {
  number: string;
  businesses: number;
  listed: boolean;
  clearedAt: Date | null;
}

/** One SPAM mark behind a number, as the admin is shown it when they ask why it is listed. */
export interface BoxMark {
  userId: number;
  businessName: string | null;
  markedAt: Date;
  standing: MarkStanding;
}

/**
 * The admin's page of the list, counted now from the marks (issue 53): every number some
 * business marked SPAM, listed first, then by the most businesses whose marks count; `q` filters
 * on the number's digits.
 */
export async function listBoxEntries(db: Db, opts: { limit: number; q?: string; now: Date; thresholds: BoxThresholds }): Promise<{ entries: BoxEntry[]; total: number; listed: number }> {
  const tables = tablesOf(db);
  const { boxSpamNumbers, spamMarks, users } = tables;
  const joins = evidenceJoins(tables);
  const counting = countingMark(tables, markWindowStart(opts.now));
  const perNumber = db
    .select({
      number: spamMarks.number,
      businesses: sql<number>`count(distinct case when ${counting} then ${spamMarks.userId} end)`.mapWith(Number).as('businesses'),
      clearedAt: boxSpamNumbers.clearedAt,
    })
    .from(spamMarks)
    .innerJoin(users, joins.owner)
    .leftJoin(boxSpamNumbers, joins.clearing)
    .where(and(eq(spamMarks.verdict, 'spam'), opts.q ? like(spamMarks.number, `%${opts.q.replace(/[%_\\]/g, '')}%`) : undefined))
    .groupBy(spamMarks.number, boxSpamNumbers.clearedAt)
    .as('per_number');
  const rows = await db.select().from(perNumber).orderBy(desc(perNumber.businesses), perNumber.number).limit(opts.limit);
  const [totals] = await db
    .select({ total: count(), listed: sql<number>`coalesce(sum(case when ${perNumber.businesses} >= ${opts.thresholds.spamMarks} then 1 else 0 end), 0)` })
    .from(perNumber);
  return {
    entries: rows.map((r) => ({ number: r.number, businesses: Number(r.businesses), listed: boxListed(Number(r.businesses), opts.thresholds), clearedAt: r.clearedAt })),
    total: totals?.total ?? 0,
    listed: Number(totals?.listed ?? 0),
  };
}

/** Why a number is (or is not) listed: every SPAM mark on it, newest first, each with whether it counts. For the admin alone. */
export async function boxMarks(db: Db, number: string, now: Date): Promise<{ marks: BoxMark[]; clearedAt: Date | null }> {
  const { spamMarks, users } = tablesOf(db);
  const clearedAt = await clearing(db, number);
  const rows = await db
    .select({ userId: users.id, businessName: users.businessName, accountStatus: users.accountStatus, markedAt: spamMarks.markedAt })
    .from(spamMarks)
    .innerJoin(users, evidenceJoins(tablesOf(db)).owner)
    .where(and(eq(spamMarks.number, number), eq(spamMarks.verdict, 'spam')))
    .orderBy(desc(spamMarks.markedAt), spamMarks.userId);
  return {
    clearedAt,
    marks: rows.map((r) => ({ userId: r.userId, businessName: r.businessName, markedAt: r.markedAt, standing: markStanding({ markedAt: r.markedAt, ownerActive: r.accountStatus === 'active', clearedAt }, now) })),
  };
}

async function clearing(db: Db, number: string): Promise<Date | null> {
  const { boxSpamNumbers } = tablesOf(db);
  return (await db.select({ clearedAt: boxSpamNumbers.clearedAt }).from(boxSpamNumbers).where(eq(boxSpamNumbers.number, number)).limit(1))[0]?.clearedAt ?? null;
}

/**
 * The admin clears a number: off the list now and for good, until marks newer than the clearing
 * bring it back. False when no business ever marked it.
 */
export async function clearBoxEntry(db: Db, number: string, now: Date): Promise<boolean> {
  const { boxSpamNumbers, spamMarks } = tablesOf(db);
  const marked = (await db.select({ id: spamMarks.id }).from(spamMarks).where(and(eq(spamMarks.number, number), eq(spamMarks.verdict, 'spam'))).limit(1))[0];
  if (!marked) return false;
  await db.insert(boxSpamNumbers).values({ number, clearedAt: now, updatedAt: now }).onConflictDoUpdate({ target: boxSpamNumbers.number, set: { clearedAt: now, updatedAt: now } });
  return true;
}
