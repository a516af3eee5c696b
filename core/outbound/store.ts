import { and, count, eq, gte, lt, sql, sum } from 'drizzle-orm';
import { londonDayNumber } from '../time/london-time.js';
import type { Db } from '../db/client.js';
import { tablesOf } from '../db/schema.js';
import { londonMidnightUtc } from '../digest/week.js';

/** [start, end) of the London day containing `now`: the daily cap starts again at midnight. */
function londonToday(now: Date): { start: Date; end: Date } {
  const day = londonDayNumber(now.getTime());
  return { start: new Date(londonMidnightUtc(day)), end: new Date(londonMidnightUtc(day + 1)) };
}

/**
 * One call placed to an owner's phone, written as soon as Asterisk takes it with `seconds` the
 * longest it may last (ring time and the answered limit): while it is in progress it counts
 * that much, so a put-through or forwarding check starting meanwhile sees it. Its id, for
 * settleOutboundCall when it ends. A core that dies before settling leaves that bound counted.
 */
export async function recordOutboundCall(db: Db, call: { userId: number; startedAt: Date; seconds: number }): Promise<number> {
  const { outboundCalls } = tablesOf(db);
  const [row] = await db.insert(outboundCalls).values(call).returning({ id: outboundCalls.id });
  return row!.id;
}

/** The call placed has ended: what it really took replaces the bound it was counted at. */
export async function settleOutboundCall(db: Db, id: number, seconds: number): Promise<void> {
  const { outboundCalls } = tablesOf(db);
  await db.update(outboundCalls).set({ seconds }).where(eq(outboundCalls.id, id));
}

/** Seconds of calls placed for this owner since London midnight, each call in progress at its bound. */
export async function outboundSecondsToday(db: Db, userId: number, now: Date): Promise<number> {
  const { outboundCalls } = tablesOf(db);
  const { start, end } = londonToday(now);
  const row = (await db
    .select({ s: sum(outboundCalls.seconds) })
    .from(outboundCalls)
    .where(and(eq(outboundCalls.userId, userId), gte(outboundCalls.startedAt, start), lt(outboundCalls.startedAt, end))).limit(1))[0];
  return Number(row?.s ?? 0);
}

export interface OutboundTotals {
  attempts: number;
  minutes: number;
}

const minutesOf = (seconds: unknown) => Math.ceil(Number(seconds ?? 0) / 60);

/** Calls placed from `from` on: in all, and per owner (most minutes first, at most `top`). */
export async function outboundSince(db: Db, from: Date, top = 10): Promise<{ total: OutboundTotals; owners: Array<OutboundTotals & { userId: number; businessName: string | null; email: string }> }> {
  const { outboundCalls, users } = tablesOf(db);
  const total = (await db.select({ n: count(), s: sum(outboundCalls.seconds) }).from(outboundCalls).where(gte(outboundCalls.startedAt, from)).limit(1))[0];
  const owners = await db
    .select({ userId: outboundCalls.userId, businessName: users.businessName, email: users.email, n: count(), s: sum(outboundCalls.seconds) })
    .from(outboundCalls)
    .innerJoin(users, eq(users.id, outboundCalls.userId))
    .where(gte(outboundCalls.startedAt, from))
    // Every selected column of users too: PostgreSQL requires it (SQLite takes the one row per user anyway).
    .groupBy(outboundCalls.userId, users.businessName, users.email)
    .orderBy(sql`sum(${outboundCalls.seconds}) desc`)
    .limit(top);
  return {
    total: { attempts: total?.n ?? 0, minutes: minutesOf(total?.s) },
    owners: owners.map((o) => ({ userId: o.userId, businessName: o.businessName, email: o.email, attempts: o.n, minutes: minutesOf(o.s) })),
  };
}
