import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import type { LiveCallEvent, TakeOverVia } from '../../contract/enums.js';
import type { Db } from '../db/client.js';
import { tablesOf } from '../db/schema.js';
import type { LiveJoin } from '../ports/live-listen.js';

// A live call's history (issue 54): every listen, take-over and End call, kept with the call
// (erased with it). The one module that writes call_live_events, and the one that reads it back.

/**
 * Records who joined the call. A take-over also marks the call row (who, when, how), once:
 * the first take-over wins, and a second is only in the history.
 */
export async function recordLiveJoin(db: Db, join: LiveJoin, at: Date): Promise<void> {
  const { callLiveEvents, calls } = tablesOf(db);
  await db.insert(callLiveEvents).values({ userId: join.userId, callId: join.callId, event: join.event, byName: join.byName, via: join.via ?? null, at });
  if (join.event === 'take-over') {
    await db
      .update(calls)
      .set({ takenOverBy: join.byName, takenOverAt: at, takenOverVia: join.via ?? 'browser' })
      .where(and(eq(calls.id, join.callId), eq(calls.userId, join.userId), isNull(calls.takenOverBy)));
  }
}

/** Who ended a call from the Live page (core/live/routes.ts): the owner's or a staff member's name, as a join keeps it. */
export async function recordLiveEnd(db: Db, end: { callId: number; userId: number; byName: string }, at: Date): Promise<void> {
  const { callLiveEvents } = tablesOf(db);
  await db.insert(callLiveEvents).values({ userId: end.userId, callId: end.callId, event: 'ended', byName: end.byName, via: null, at });
}

/** Who took a call over, as the call log carries it from the call's row; null when nobody did. */
export function takenOverOf(c: { takenOverBy: string | null; takenOverAt: Date | null; takenOverVia: TakeOverVia | null }): { by: string; at: string; via: TakeOverVia } | null {
  return c.takenOverBy && c.takenOverAt ? { by: c.takenOverBy, at: c.takenOverAt.toISOString(), via: c.takenOverVia ?? 'browser' } : null;
}

/** One line of a call's live history as the call log carries it. */
export interface LiveHistoryEntry {
  event: LiveCallEvent;
  by: string;
  via?: TakeOverVia;
  at: string;
}

/**
 * The live history of some of one business's calls (all of them without callIds: its data
 * export), oldest first per call; a call with none is absent.
 */
export async function liveHistoryOf(db: Db, userId: number, callIds?: readonly number[]): Promise<Map<number, LiveHistoryEntry[]>> {
  const byCall = new Map<number, LiveHistoryEntry[]>();
  if (callIds?.length === 0) return byCall;
  const { callLiveEvents: e } = tablesOf(db);
  const rows = await db
    .select({ callId: e.callId, event: e.event, byName: e.byName, via: e.via, at: e.at })
    .from(e)
    .where(and(eq(e.userId, userId), callIds ? inArray(e.callId, [...callIds]) : undefined))
    .orderBy(asc(e.callId), asc(e.id));
  for (const r of rows) {
    const entry: LiveHistoryEntry = { event: r.event, by: r.byName, at: r.at.toISOString(), ...(r.via ? { via: r.via } : {}) };
    const list = byCall.get(r.callId);
    if (list) list.push(entry);
    else byCall.set(r.callId, [entry]);
  }
  return byCall;
}
