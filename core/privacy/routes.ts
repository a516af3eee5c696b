import { toE164 } from '../../contract/phone.js';
import { CallerErasedResponse, CallerNumberParams, OwnerExportSchema, RetentionPolicySchema } from '../../contract/schemas/privacy.js';
import { audit } from '../audit/audit.js';
import { badRequest } from '../http/errors.js';
import type { App } from '../http/fastify-types.js';
import { ADMIN_ONLY } from '../http/access-guard.js';
import { currentUser } from '../http/session-hook.js';
import { eraseCaller, exportOwnerData } from './caller-data.js';
import { getRetention, setRetention } from './retention.js';
import { transaction } from '../db/transaction.js';

/** UK GDPR: the owner's export and a caller's erasure (owner tree), the retention policy (admin tree, `access: 'admin'`). */
export async function privacyRoutes(app: App): Promise<void> {
  await app.register(ownerPrivacyRoutes);
  await app.register(adminPrivacyRoutes);
}

async function ownerPrivacyRoutes(app: App): Promise<void> {
  const { database, config, now } = app.services;
  const db = database.db;

  app.get('/api/user/export', { schema: { response: { 200: OwnerExportSchema } } }, async (req, reply) => {
    const user = currentUser(req);
    const date = now().toISOString().slice(0, 10);
    return reply
      .header('content-disposition', `attachment; filename="call-data-export-${date}.json"`)
      .send(await exportOwnerData(db, user, now()));
  });

  app.delete(
    '/api/user/callers/:number',
    { schema: { params: CallerNumberParams, response: { 200: CallerErasedResponse } } },
    async (req) => {
      const user = currentUser(req);
      const number = toE164(req.params.number);
      if (!number) throw badRequest("Give the caller's number with its country code, e.g. +447700900123");
      const result = await eraseCaller(db, config.dataDir, user.id, number);
      // Counts only: the number itself is personal data and stays out of the log.
      req.log.info({ userId: user.id, ...result }, 'caller data erased on request');
      return { ...result, message: `Deleted ${result.deletedCalls} call(s) and ${result.deletedQuestions} question(s) from this caller.` };
    },
  );

}

async function adminPrivacyRoutes(app: App): Promise<void> {
  const { database, config, now } = app.services;
  const db = database.db;

  app.get('/api/admin/retention', { config: ADMIN_ONLY, schema: { response: { 200: RetentionPolicySchema } } }, async () => getRetention(db, config.retention));

  app.patch('/api/admin/retention', { config: ADMIN_ONLY, schema: { body: RetentionPolicySchema, response: { 200: RetentionPolicySchema } } }, async (req) => {
    const admin = currentUser(req);
    const policy = { recordingDays: req.body.recordingDays, transcriptDays: req.body.transcriptDays };
    await transaction(db, async () => {
      await setRetention(db, policy, now());
      await audit(db, admin, 'retention.update', null, { ...policy }, now());
    });
    return policy;
  });
}
