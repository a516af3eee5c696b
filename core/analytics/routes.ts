import { currentUser, requireUser } from '../http/session-hook.js';
import type { App } from '../http/fastify-types.js';
import { computeAnalytics } from './queries.js';

/** GET /api/analytics: the signed-in owner's figures (SPEC.md §3 Analytics), never anyone else's. */
export async function analyticsRoutes(app: App): Promise<void> {
  app.get('/api/analytics', { preHandler: requireUser }, async (req) => {
    const { database, now } = app.services;
    return computeAnalytics(database.sqlite, currentUser(req).id, now());
  });
}
