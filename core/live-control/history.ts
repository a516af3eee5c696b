import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { tablesOf } from '../db/schema.js';
import type { LiveJoin } from '../ports/live-listen.js';

// A live call's history (issue 54): every listen and take-over, kept with the call. The one
// module that writes call_live_events; an End call or any later live action joins it here.

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
