import { ApiAdminLineStateSchema, ApiOwnerLineStateSchema } from '../../contract/schemas/line-state.js';
import type { App } from '../http/fastify-types.js';
import { ADMIN_ONLY } from '../http/access-guard.js';
import { currentUser } from '../http/session-hook.js';
import { LineState } from './line-state.js';

/** GET /api/line-state (the signed-in owner's banner) and GET /api/admin/line-state (the admin's status). */
export async function lineStateRoutes(app: App): Promise<void> {
  const line = new LineState(app.services);
  line.start();
  app.addHook('onClose', async () => line.stop());

  app.get('/api/line-state', { schema: { response: { 200: ApiOwnerLineStateSchema } } }, async (req) => line.owner(currentUser(req).id));
  app.get('/api/admin/line-state', { config: ADMIN_ONLY, schema: { response: { 200: ApiAdminLineStateSchema } } }, async () => line.admin());
}
