import { and, count, eq, gte, isNotNull, lt } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { calls } from '../db/schema.js';

/**
 * Screened calls (issue 43) in [from, to), for one owner or the whole box: each is a text the
 * owner did not get. calls_screened_created_idx (screened_by, created_at, user_id) keeps this a
 * range over the screened rows only. The owner's own test calls are never screened.
 */
export async function screenedCalls(db: Db, opts: { userId?: number; from?: Date; to?: Date }): Promise<number> {
  const [r] = await db
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
  return r?.n ?? 0;
}
