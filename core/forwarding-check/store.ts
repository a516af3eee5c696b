import { and, desc, eq, gt } from 'drizzle-orm';
import type { ApiForwardingCheck } from '../../contract/schemas/forwarding-check.js';
import type { Db } from '../db/client.js';
import { tablesOf } from '../db/schema.js';
import { latestDiversion } from './diversion.js';

// The checks' rows. Async drizzle in the dialect-neutral style: PostgreSQL runs the same code.

/**
 * A check whose core stopped mid-way never gets its end written: past its window by this much
 * it reads as not reaching (the forwarded call can no longer be told from any other).
 */
const STALE_AFTER_MS = 30_000;

/** The check's call is about to be placed: its row, waiting until `endsAt`. */
export async function openForwardingCheck(db: Db, c: { userId: number; did: string; line: string; startedAt: Date; endsAt: Date }): Promise<number> {
  const { forwardingChecks } = tablesOf(db);
  const [row] = await db.insert(forwardingChecks).values(c).returning({ id: forwardingChecks.id });
  return row!.id;
}

/** A check of this owner still waiting for its call, if any. */
export async function forwardingCheckInProgress(db: Db, userId: number, now: Date): Promise<boolean> {
  const { forwardingChecks } = tablesOf(db);
  const rows = await db
    .select({ id: forwardingChecks.id })
    .from(forwardingChecks)
    .where(and(eq(forwardingChecks.userId, userId), eq(forwardingChecks.state, 'calling'), gt(forwardingChecks.endsAt, new Date(now.getTime() - STALE_AFTER_MS))))
    .limit(1);
  return rows.length > 0;
}

/** The check waiting for a forwarded call to `did` now, if any (the newest). */
export async function pendingForwardingCheck(db: Db, did: string, now: Date): Promise<{ id: number; userId: number } | undefined> {
  const { forwardingChecks } = tablesOf(db);
  const rows = await db
    .select({ id: forwardingChecks.id, userId: forwardingChecks.userId })
    .from(forwardingChecks)
    .where(and(eq(forwardingChecks.did, did), eq(forwardingChecks.state, 'calling'), gt(forwardingChecks.endsAt, new Date(now.getTime() - STALE_AFTER_MS))))
    .orderBy(desc(forwardingChecks.id))
    .limit(1);
  return rows[0];
}

/**
 * The check's call came back forwarded, carrying `diversionHeaders` (each Diversion header's
 * value, top first). False when the check had already ended (it was too late).
 */
export async function forwardingCheckArrived(db: Db, id: number, diversionHeaders: readonly (string | null)[], now: Date): Promise<boolean> {
  const { forwardingChecks } = tablesOf(db);
  const diversion = latestDiversion(diversionHeaders);
  const updated = await db
    .update(forwardingChecks)
    .set({ state: 'works', condition: diversion?.condition ?? 'unknown', divertedFrom: diversion?.number ?? null, finishedAt: now })
    .where(and(eq(forwardingChecks.id, id), eq(forwardingChecks.state, 'calling')))
    .returning({ id: forwardingChecks.id });
  return updated.length > 0;
}

/** The check's window closed with nothing back: not reaching us (unless it arrived meanwhile). */
export async function forwardingCheckUnreached(db: Db, id: number, now: Date): Promise<void> {
  const { forwardingChecks } = tablesOf(db);
  await db
    .update(forwardingChecks)
    .set({ state: 'not-reaching', finishedAt: now })
    .where(and(eq(forwardingChecks.id, id), eq(forwardingChecks.state, 'calling')));
}

/** The check as the console reads it; undefined when it is not this owner's. */
export async function readForwardingCheck(db: Db, id: number, userId: number, now: Date): Promise<ApiForwardingCheck | undefined> {
  const { forwardingChecks } = tablesOf(db);
  const [row] = await db.select().from(forwardingChecks).where(and(eq(forwardingChecks.id, id), eq(forwardingChecks.userId, userId))).limit(1);
  if (!row) return undefined;
  if (row.state === 'calling' && row.endsAt.getTime() + STALE_AFTER_MS < now.getTime()) return { id, state: 'not-reaching' };
  return { id, state: row.state, ...(row.state === 'works' ? { condition: row.condition ?? 'unknown' } : {}) };
}
