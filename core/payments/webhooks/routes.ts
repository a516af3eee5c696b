import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { PAYMENT_ROUTES } from '../../../contract/payments.js';
import { MessageResponse } from '../../../contract/schemas/shared.js';
import type { App } from '../../http/fastify-types.js';
import { badRequest, notFound } from '../../http/errors.js';
import { routeLimit } from '../../http/rate-limits.js';
import type { StripeEventHandlers } from '../parts.js';
import { applyOnce } from './apply-once.js';
import { depositWebhookSecret } from './deposit-secret.js';
import { verifiedEvent } from './verify.js';

const DEPOSITS_WEBHOOK_PATH = '/api/stripe/webhooks/deposits/:userId';
const UserIdParams = Type.Object({ userId: Type.Integer({ minimum: 1 }) });

/**
 * Stripe's webhooks (docs/payments.md "Webhooks"): POST /api/stripe/webhooks/billing from the
 * operator's account (BILLING=stripe) and POST /api/stripe/webhooks/deposits/:userId from the
 * endpoint the box made on each owner's account. Inside the /api scope for its no-store and error
 * handling, but marked `webhook`, so the session and same-origin guards step aside: Stripe's
 * signature is the authentication. This plugin is encapsulated, so its raw-bytes body parser
 * (the signature is over the exact bytes) leaves the rest of /api parsing JSON as before.
 */
export async function stripeWebhookRoutes(app: App, opts: { handlers: StripeEventHandlers }): Promise<void> {
  const { config, database, log, now } = app.services;
  const { handlers } = opts;

  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 512 * 1024 }, (_req, body, done) => done(null, body));

  const routeConfig = { webhook: true, ...routeLimit(app.rateLimits.stripeWebhooksPerIp) };

  function rawBody(req: FastifyRequest): Buffer {
    if (!Buffer.isBuffer(req.body) || req.body.length === 0) throw badRequest('A Stripe event is sent as a JSON body; this request has none.');
    return req.body;
  }

  /** Verified, then applied once; a refusal is logged by its reason alone (never the header, the body or the secret). */
  async function receive(req: FastifyRequest, scope: 'billing' | 'deposits', secret: string, handle: (event: Awaited<ReturnType<typeof verifiedEvent>>) => Promise<number | null>, userId?: number) {
    let event;
    try {
      event = await verifiedEvent(rawBody(req), req.headers['stripe-signature'], secret, now());
    } catch (err) {
      log.warn({ scope, userId, reason: (err as Error).message }, 'stripe webhook refused');
      throw err;
    }
    const result = await applyOnce(database.db, now, scope, event, () => handle(event));
    log.info({ scope, userId, eventId: event.id, type: event.type, result }, 'stripe event');
    return { message: result === 'repeat' ? 'Already applied.' : 'Applied.' };
  }

  app.post(PAYMENT_ROUTES.billingWebhook, { config: routeConfig, schema: { response: { 200: MessageResponse } } }, async (req) => {
    const billing = config.stripe.billing;
    if (!billing) throw notFound('Billing through Stripe is not set up on this box (BILLING is unset).');
    return receive(req, 'billing', billing.webhookSecret, (event) => handlers.billing(event));
  });

  app.post(DEPOSITS_WEBHOOK_PATH, { config: routeConfig, schema: { params: UserIdParams, response: { 200: MessageResponse } } }, async (req) => {
    const { userId } = req.params;
    const found = await depositWebhookSecret(database.db, app.services.booking.keys.seal, userId);
    if ('missing' in found) {
      if (found.missing === 'unreadable') log.warn({ userId }, 'stripe webhook secret sealed under another key (BOOKING_SECRET changed?): the owner must connect Stripe again');
      throw notFound('This account has no Stripe connection for deposits.');
    }
    return receive(req, 'deposits', found.secret, async (event) => {
      await handlers.deposits(userId, event);
      return userId;
    }, userId);
  });
}
