import { and, desc, eq, gte, ne, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { tablesOf } from '../db/schema.js';

/**
 * Texts the businesses sent their callers since `since` (the admin's Usage screen, this London
 * month): how many and how many SMS parts they cost, in all and for the ten owners who sent most.
 */
export async function callerTextUsageSince(db: Db, since: Date) {
  const { callerTexts, users } = tablesOf(db);
  const sent = and(ne(callerTexts.kind, 'caller'), gte(callerTexts.createdAt, since));
  const texts = sql<number>`count(*)`.mapWith(Number);
  const segments = sql<number>`coalesce(sum(${callerTexts.segments}), 0)`.mapWith(Number);
  const [total] = await db.select({ texts, segments }).from(callerTexts).where(sent);
  const owners = await db
    .select({ userId: callerTexts.userId, name: sql<string>`coalesce(${users.businessName}, ${users.email})`, texts, segments })
    .from(callerTexts).innerJoin(users, eq(users.id, callerTexts.userId)).where(sent)
    .groupBy(callerTexts.userId, users.businessName, users.email).orderBy(desc(segments)).limit(10);
  return { texts: total?.texts ?? 0, segments: total?.segments ?? 0, owners };
}
