import type { ApiMeta } from '../../contract/api.js';
import { ApiMetaSchema, HealthSchema } from '../../contract/schemas/system.js';
import { SESSION_COOKIE, userForSession } from '../auth/sessions.js';
import { databaseIsUsable } from '../db/client.js';
import type { App } from '../http/fastify-types.js';
import { PRODUCT_NAME } from '../mail/brand.js';
import { PIPER_VOICES } from '../../models/tts/voices.js';

/** The Piper voice names (models/tts/voices.ts is their single source). */
const VOICE_NAMES = PIPER_VOICES;

export async function systemRoutes(app: App): Promise<void> {
  const { database, config, health } = app.services;

  /**
   * An administrator's session, if the request carries one. /healthz is outside the /api
   * scope (a container's health check has no session), so it looks the cookie up itself; a
   * database that cannot answer means nobody is signed in.
   */
  const askedByAdmin = async (sid: string | undefined): Promise<boolean> => {
    if (!sid) return false;
    const user = await userForSession(database.db, sid, app.services.now()).catch(() => undefined);
    return user?.role === 'admin';
  };

  /**
   * Liveness and readiness in one: 503 when the database cannot answer. Signed out (a
   * container's health check, a load balancer, anyone on the network) it says only that, in
   * its status code and `status`; each component's report (the PBX link, calls in progress,
   * Asterisk's address, the engines) is for an administrator's session.
   */
  app.get('/healthz', { schema: { response: { 200: HealthSchema, 503: HealthSchema } } }, async (req, reply) => {
    const dbOk = await databaseIsUsable(database);
    const status = dbOk ? 'ok' : 'unavailable';
    if (!(dbOk && (await askedByAdmin(req.cookies[SESSION_COOKIE])))) return reply.status(dbOk ? 200 : 503).send({ status });
    const components: Record<string, { ok: boolean; detail?: string }> = { database: { ok: dbOk } };
    for (const [name, report] of health) components[name] = report();
    return reply.status(200).send({ status, components });
  });

  app.get('/api/meta', { schema: { response: { 200: ApiMetaSchema } } }, async (): Promise<ApiMeta> => ({
    productName: PRODUCT_NAME,
    provider: config.numbers.provider,
    helpContact: { name: config.support.name, email: config.support.email },
    voices: { female: VOICE_NAMES.female, male: VOICE_NAMES.male },
    transfersAvailable: config.outbound.endpoint !== undefined,
  }));
}
