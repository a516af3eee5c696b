import { ApiStripeConnectionSchema, StripeConnectionBody, StripeTestResponse } from '../../../contract/schemas/payments.js';
import { ApiErrorSchema } from '../../../contract/schemas/shared.js';
import { PAYMENT_ROUTES } from '../../../contract/payments.js';
import { badRequest } from '../../http/errors.js';
import type { App } from '../../http/fastify-types.js';
import { currentUser } from '../../http/session-hook.js';

// The owner's Stripe connection for deposits (docs/payments.md): owner-scoped, the key never in
// an answer (keyEnding only). Registered in the API scope (core/http/api-scope.ts).

const orRefused = <T extends object>(r: T | { refused: string }): T => {
  if ('refused' in r) throw badRequest(r.refused);
  return r;
};

export async function depositRoutes(app: App): Promise<void> {
  const { deposits } = app.services;
  app.get(PAYMENT_ROUTES.stripe, { schema: { response: { 200: ApiStripeConnectionSchema } } }, async (req) => deposits.view(currentUser(req).id));

  app.put(PAYMENT_ROUTES.stripe, { schema: { body: StripeConnectionBody, response: { 200: ApiStripeConnectionSchema, 400: ApiErrorSchema } } }, async (req) =>
    orRefused(await deposits.save(currentUser(req).id, req.body)));

  app.delete(PAYMENT_ROUTES.stripe, { schema: { response: { 200: ApiStripeConnectionSchema, 400: ApiErrorSchema } } }, async (req) =>
    orRefused(await deposits.disconnect(currentUser(req).id)));

  app.post(PAYMENT_ROUTES.stripeTest, { schema: { response: { 200: StripeTestResponse, 400: ApiErrorSchema } } }, async (req) =>
    orRefused(await deposits.test(currentUser(req).id)));
}
