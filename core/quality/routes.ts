import { ApiQualityReportsSchema, SelfTestStatusSchema } from '../../contract/schemas/quality.js';
import { audit } from '../audit/audit.js';
import type { App } from '../http/fastify-types.js';
import { ADMIN_ONLY } from '../http/access-guard.js';
import { currentUser } from '../http/session-hook.js';
import { currentFingerprint, selfTestStatus } from '../self-test/status.js';
import { updateSelfTestState } from '../self-test/state.js';
import { latestPerModels, qualityReportsDir, readQualityReports, splitSelfTests } from './reports.js';

/**
 * GET /api/admin/quality: the reports `npm run eval` made on the box (`reports`, as before) and
 * the box's own self-test (`selfTest`, core/self-test); POST .../accept-agent-mode: the
 * operator lets new owners start in SPEC's default mode although the self-test found the box slow.
 */
export async function qualityRoutes(app: App): Promise<void> {
  const { config, database } = app.services;
  const dir = qualityReportsDir(config.dataDir);
  app.get('/api/admin/quality', { config: ADMIN_ONLY, schema: { response: { 200: ApiQualityReportsSchema } } }, async (req) => {
    const { reports, unreadable } = await readQualityReports(dir);
    if (unreadable.length) req.log.warn({ dir, unreadable }, 'quality reports not in the format this version reads were left out');
    const { evaluations, selfTests } = splitSelfTests(reports);
    return { reports: latestPerModels(evaluations), selfTest: await selfTestStatus(config, selfTests) };
  });

  app.post('/api/admin/quality/accept-agent-mode', { config: ADMIN_ONLY, schema: { response: { 200: SelfTestStatusSchema } } }, async (req) => {
    const admin = currentUser(req);
    const at = app.services.now();
    // For the engines configured now: another model or voice gets its own self-test and its own decision.
    const fingerprint = await currentFingerprint(config);
    await audit(database.db, admin, 'quality.accept-agent-mode', null, { fingerprint }, at);
    await updateSelfTestState(config.dataDir, (s) => ({ ...s, accepted: { fingerprint, at: at.toISOString(), by: admin.email } }));
    return selfTestStatus(config, splitSelfTests((await readQualityReports(dir)).reports).selfTests);
  });
}
