import type { ApiMeta } from '../../contract/api.js';
import { ApiMetaSchema, HealthSchema } from '../../contract/schemas/system.js';
import { databaseIsUsable } from '../db/client.js';
import type { App } from '../http/fastify-types.js';
import { PRODUCT_NAME } from '../mail/brand.js';
import { PIPER_VOICES } from '../../models/tts/voices.js';

/** The Piper voice names (models/tts/voices.ts is their single source). */
const VOICE_NAMES = PIPER_VOICES;

export async function systemRoutes(app: App): Promise<void> {
  const { database, config, health } = app.services;

  /** Liveness and readiness in one: 503 when the database cannot answer. */
  app.get('/healthz', { schema: { response: { 200: HealthSchema, 503: HealthSchema } } }, async (_req, reply) => {
    const dbOk = await databaseIsUsable(database);
    const components: Record<string, { ok: boolean; detail?: string }> = { database: { ok: dbOk } };
    for (const [name, report] of health) components[name] = report();
    return reply.status(dbOk ? 200 : 503).send({ status: dbOk ? 'ok' : 'unavailable', components });
  });

  app.get('/api/meta', { schema: { response: { 200: ApiMetaSchema } } }, async (): Promise<ApiMeta> => ({
    productName: PRODUCT_NAME,
    provider: config.numbers.provider,
    helpContact: { name: config.support.name, email: config.support.email },
    voices: { female: VOICE_NAMES.female, male: VOICE_NAMES.male },
    transfersAvailable: config.outbound.endpoint !== undefined,
  }));
}
