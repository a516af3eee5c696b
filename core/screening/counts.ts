import { and, count, eq, gte, isNotNull, lt } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { tablesOf } from '../db/schema.js';

interface ScreenedScope {
  userId?: number;
  from?: Date;
  to?: Date;
}

/** The count's query, apart so test/screening/screened-plan.test.ts can ask the planner which index it reads. */
export function screenedCallsQuery(db: Db, opts: ScreenedScope) {
  const { calls } = tablesOf(db);
  return db
    .select({ n: count() })
    .from(calls)
    .where(
      and(
        isNotNull(calls.screenedBy),
        opts.from ? gte(calls.createdAt, opts.from) : undefined,
        opts.to ? lt(calls.createdAt, opts.to) : undefined,
        opts.userId !== undefined ? eq(calls.userId, opts.userId) : undefined,
      ),
    );
}

/**
 * Screened calls (issue 43) in [from, to), for one owner or the whole box: each is a text the
 * owner did not get. calls_screened_idx (partial: screened rows only) keeps this a read of the
 * few screened rows, whatever the size of the table. The owner's own test calls are never screened.
 */
export async function screenedCalls(db: Db, opts: ScreenedScope): Promise<number> {
  const [r] = await screenedCallsQuery(db, opts);
  return r?.n ?? 0;
}
