import fp from 'fastify-plugin';
import { ApiErrorSchema } from '../../contract/schemas/shared.js';
import { ApiWebhookSettingsSchema, WebhookResponse, WebhookTestResponse, WebhookUpdateBody } from '../../contract/schemas/webhooks.js';
import type { ApiWebhookSettings } from '../../contract/webhooks.js';
import { and, eq } from 'drizzle-orm';
import { tablesOf } from '../db/schema.js';
import { toApiDelivery } from './api-shape.js';
import { badRequest, conflict } from '../http/errors.js';
import type { App } from '../http/fastify-types.js';
import { routeLimit } from '../http/rate-limits.js';
import { currentUser } from '../http/session-hook.js';

/** The owner's webhook: settings, secret rotation, delivery log and the test event. Owner-scoped like every /api/user route. */
async function ownerWebhookRoutes(app: App): Promise<void> {
  const { webhooks } = app;
  const { database } = app.services;

  const view = async (userId: number): Promise<ApiWebhookSettings> => {
    const s = await webhooks.settings(userId);
    return { url: s.url, secret: s.secret, deliveries: (await webhooks.deliveries(userId)).map(toApiDelivery) };
  };

  app.get('/api/user/webhook', { schema: { response: { 200: ApiWebhookSettingsSchema } } }, async (req) => view(currentUser(req).id));

  app.put(
    '/api/user/webhook',
    {
      schema: { body: WebhookUpdateBody, response: { 200: WebhookResponse, 400: ApiErrorSchema } },
      errorHandler: (error, _req, reply) => {
        const v = error.validation?.[0];
        if (v?.instancePath === '/url' && v.keyword === 'maxLength') return reply.status(400).send({ message: 'Webhook URL must be at most 2,000 characters' });
        if (error.validation && v?.instancePath === '/url' && v.keyword !== 'textKind') {
          return reply.status(400).send({ message: 'Webhook URL must be an https:// address, or null to turn webhooks off' });
        }
        throw error;
      },
    },
    async (req) => {
      const user = currentUser(req);
      const raw = req.body.url;
      if (raw === null || !raw.trim()) {
        await webhooks.setUrl(user.id, null);
        return { webhook: await view(user.id), message: 'Webhook turned off' };
      }
      const verdict = await webhooks.checkUrl(raw);
      if (!verdict.ok) throw badRequest(verdict.message, { url: verdict.message });
      await webhooks.setUrl(user.id, verdict.url);
      return { webhook: await view(user.id), message: 'Webhook saved' };
    },
  );

  app.post('/api/user/webhook/rotate-secret', { schema: { response: { 200: WebhookResponse } } }, async (req) => {
    const user = currentUser(req);
    await webhooks.rotateSecret(user.id);
    return { webhook: await view(user.id), message: 'New signing secret made: update it in your other tool' };
  });

  app.post(
    '/api/user/webhook/test',
    { schema: { response: { 202: WebhookTestResponse } }, config: routeLimit(app.rateLimits.webhookTestsPerOwner, (req) => `owner:${req.user?.id}`, 'preHandler') },
    async (req, reply) => {
    const user = currentUser(req);
    // One test on its way at a time: the button cannot be used to flood a receiver.
    const { webhookDeliveries } = tablesOf(database.db);
    const waiting = (await database.db
      .select({ id: webhookDeliveries.id })
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.userId, user.id), eq(webhookDeliveries.event, 'webhook.test'), eq(webhookDeliveries.status, 'pending'))).limit(1))[0];
    if (waiting) throw conflict('A test event is already on its way; wait for it to be delivered or to fail');
    const delivery = await webhooks.enqueueTest(user.id);
    if (!delivery) throw badRequest('Save a webhook URL first');
    return reply.status(202).send({ delivery: toApiDelivery(delivery), message: 'Test event queued' });
    },
  );
}

/** Encapsulated, and declared to need the `webhooks` service (core/plugins/app-services.ts). */
export const webhookRoutes = fp(ownerWebhookRoutes, { name: 'webhook-routes', dependencies: ['webhooks'], encapsulate: true });
