import { ApiEnginesSchema } from '../../contract/schemas/language-model.js';
import type { App } from '../http/fastify-types.js';
import { ADMIN_ONLY } from '../http/access-guard.js';

/** GET /api/admin/engines: whether the language model is on the box yet (pulled on first start, issue 60), for the admin dashboard. */
export async function languageModelRoutes(app: App): Promise<void> {
  const { agentEngines } = app.services;
  app.get('/api/admin/engines', { config: ADMIN_ONLY, schema: { response: { 200: ApiEnginesSchema } } }, async () => ({ languageModel: agentEngines.model.state() }));
}
