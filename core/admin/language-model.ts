import { ApiEnginesSchema } from '../../contract/schemas/language-model.js';
import type { App } from '../http/fastify-types.js';
import { ADMIN_ONLY } from '../http/access-guard.js';

/** GET /api/admin/engines: whether the language model is on the box yet (pulled on first start, issue 60) and whether this node's slow-box guard is closed, for the admin dashboard. */
export async function languageModelRoutes(app: App): Promise<void> {
  const { agentEngines, agentGuard } = app.services;
  app.get('/api/admin/engines', { config: ADMIN_ONLY, schema: { response: { 200: ApiEnginesSchema } } }, async () => ({
    languageModel: agentEngines.model.state(),
    // This node's slow-box guard (issue 60 item 4): closed, new agent-mode calls get voicemail.
    agentGuard: agentGuard.state(),
  }));
}
