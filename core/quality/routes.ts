import { ApiQualityReportsSchema } from '../../contract/schemas/quality.js';
import type { App } from '../http/fastify-types.js';
import { ADMIN_ONLY } from '../http/access-guard.js';
import { latestPerModels, qualityReportsDir, readQualityReports } from './reports.js';

/** GET /api/admin/quality: read-only; the reports are made by `npm run eval` on the box, never by the server. */
export async function qualityRoutes(app: App): Promise<void> {
  const dir = qualityReportsDir(app.services.config.dataDir);
  app.get('/api/admin/quality', { config: ADMIN_ONLY, schema: { response: { 200: ApiQualityReportsSchema } } }, async (req) => {
    const { reports, unreadable } = await readQualityReports(dir);
    if (unreadable.length) req.log.warn({ dir, unreadable }, 'quality reports not in the format this version reads were left out');
    return { reports: latestPerModels(reports) };
  });
}
