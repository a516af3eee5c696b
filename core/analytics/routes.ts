import { ANALYTICS_PERIODS, type AnalyticsPeriod } from '../../contract/api.js';
import { ApiAnalyticsSchema } from '../../contract/schemas/calls.js';
import { badRequest } from '../http/errors.js';
import { currentUser } from '../http/session-hook.js';
import type { App } from '../http/fastify-types.js';
import { computeAnalytics } from './queries.js';

const isPeriod = (v: unknown): v is AnalyticsPeriod => typeof v === 'string' && (ANALYTICS_PERIODS as readonly string[]).includes(v);

/**
 * GET /api/analytics: the signed-in owner's figures (SPEC.md §3 Analytics), never anyone
 * else's. `?period=7d|30d|month|all` (default all) picks the stretch `urgencyBreakdown` covers;
 * SPEC's figures do not depend on it.
 */
export async function analyticsRoutes(app: App): Promise<void> {
  app.get('/api/analytics', { schema: { response: { 200: ApiAnalyticsSchema } } }, async (req) => {
    const { database, now } = app.services;
    const { period = 'all' } = req.query as { period?: unknown };
    if (!isPeriod(period)) throw badRequest(`period must be one of ${ANALYTICS_PERIODS.join(', ')}`);
    return await computeAnalytics(database.db, currentUser(req).id, now(), period);
  });
}
