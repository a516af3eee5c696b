import { and, eq, gt, isNotNull, lt, notExists, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { tablesOf } from '../db/schema.js';

/**
 * A call that finished while the process was dying may never have fired the hook: the
 * finder returns recent finished calls (ended before `endedBefore`, epoch ms) without a
 * post-call job. Bounded to the newest rows so it stays cheap.
 */
export function orphanedCallFinder(db: Db): (endedBefore: number) => Promise<number[]> {
  const { calls, jobs } = tablesOf(db);
  return async (endedBefore) =>
    (
      await db
        .select({ id: calls.id })
        .from(calls)
        .where(
          and(
            gt(calls.id, sql`(select coalesce(max(${calls.id}), 0) - 1000 from ${calls})`),
            isNotNull(calls.endedAt),
            lt(calls.endedAt, new Date(endedBefore)),
            notExists(db.select({ one: sql`1` }).from(jobs).where(eq(jobs.key, sql`'post-call:' || ${calls.id}`))),
          ),
        )
    ).map((r) => r.id);
}
