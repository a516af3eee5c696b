import { and, count, eq, gte, or } from 'drizzle-orm';
import type { ApiAgentCapacity } from '../../contract/api.js';
import { ApiAgentCapacitySchema } from '../../contract/schemas/agent-capacity.js';
import type { PoolStats } from '../../models/pool/engine-pool.js';
import { tablesOf } from '../db/schema.js';
import type { Db } from '../db/client.js';
import type { EnginePools } from '../engines/engine-pools.js';
import type { App } from '../http/fastify-types.js';
import { ADMIN_ONLY } from '../http/access-guard.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** One engine's slots from its pool's counters. */
function engineSlots(s: PoolStats): ApiAgentCapacity['engines'][number] {
  return {
    engine: s.engine,
    slots: s.endpoints.reduce((n, e) => n + e.slots, 0),
    slotsInUse: s.endpoints.reduce((n, e) => n + e.inUse, 0),
    endpoints: s.endpoints.length,
    healthyEndpoints: s.endpoints.filter((e) => e.healthy).length,
  };
}

/** Agent conversations against what the pools admit (the same figures admission decides from). */
function capacityInUse(pools: EnginePools): Omit<ApiAgentCapacity, 'voicemailForCapacity'> {
  const admitting = pools.stt ? [pools.llm, pools.stt] : [pools.llm];
  return {
    conversations: pools.llm.stats().conversations,
    conversationCapacity: Math.min(...admitting.map((p) => p.conversationCapacity())),
    engines: [pools.llm, pools.stt, pools.tts].filter((p) => p !== undefined).map((p) => engineSlots(p.stats())),
  };
}

/** Agent-mode calls since `since` the engines could not serve: refused at answer (busy) or offered voicemail mid-call (stalled). */
async function voicemailsForCapacity(db: Db, since: Date): Promise<ApiAgentCapacity['voicemailForCapacity']> {
  const { calls } = tablesOf(db);
  const rows = await db
    .select({ busy: calls.agentBusy, stalled: calls.agentStalled, n: count() })
    .from(calls)
    .where(and(gte(calls.createdAt, since), or(eq(calls.agentBusy, true), eq(calls.agentStalled, true))))
    .groupBy(calls.agentBusy, calls.agentStalled);
  const sum = (pick: (r: (typeof rows)[number]) => boolean) => rows.filter(pick).reduce((n, r) => n + r.n, 0);
  return { busy: sum((r) => r.busy), stalled: sum((r) => !r.busy && r.stalled), total: sum(() => true) };
}

export async function agentCapacityRoutes(app: App): Promise<void> {
  const { database, agentEngines, now } = app.services;
  app.get('/api/admin/agent-capacity', { config: ADMIN_ONLY, schema: { response: { 200: ApiAgentCapacitySchema } } }, async () => ({
    ...capacityInUse(agentEngines.pools),
    voicemailForCapacity: await voicemailsForCapacity(database.db, new Date(now().getTime() - DAY_MS)),
  }));
}
