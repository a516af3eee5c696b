import fp from 'fastify-plugin';
import {
  ApiUsageSchema,
  PhoneNumbersResponse,
  ProviderNumbersResponse,
  PurchaseResponse,
  ReleaseBody,
  ReleaseParams,
} from '../../contract/schemas/numbers.js';
import { MessageResponse } from '../../contract/schemas/shared.js';
import { HttpError } from '../http/errors.js';
import type { App } from '../http/fastify-types.js';
import { ADMIN_ONLY } from '../http/access-guard.js';
import { currentUser } from '../http/session-hook.js';
import { NumberServiceError, type NumberRefusal } from './errors.js';

/** The status each of the service's refusals answers with. */
const STATUS: Record<NumberRefusal, number> = {
  'not-allowed': 403,
  'unknown-number': 404,
  mismatch: 400,
  conflict: 409,
  'provider-failed': 502,
};

/** The service's own errors become the HTTP answers the console shows; anything else is a 500. */
async function answering<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (err) {
    if (err instanceof NumberServiceError) throw new HttpError(STATUS[err.reason], err.message);
    throw err;
  }
}

/** The owner's tree: their own numbers and the purchase, signed-in owners only. */
async function ownerNumberRoutes(app: App): Promise<void> {
  const { numbers } = app;

  app.get('/api/phone-numbers', { schema: { response: { 200: PhoneNumbersResponse } } }, async (req) => ({
    numbers: await numbers.ownerNumbers(currentUser(req).id),
  }));

  app.post('/api/phone-numbers/purchase', { schema: { response: { '2xx': PurchaseResponse } } }, async (req, reply) => {
    const { number, message, created } = await answering(numbers.purchase(currentUser(req)));
    return reply.status(created ? 201 : 200).send({ number, message });
  });
}

/**
 * The admin's tree, under the configured provider's name (/api/admin/static-numbers or
 * /api/admin/twilio-numbers); the other provider's paths are simply not registered (404).
 */
async function adminNumberRoutes(app: App): Promise<void> {
  const { numbers } = app;
  const p = numbers.providerName;

  app.get(`/api/admin/${p}-numbers`, { config: ADMIN_ONLY, schema: { response: { 200: ProviderNumbersResponse } } }, async () => answering(numbers.adminList()));

  app.post(
    `/api/admin/${p}-numbers/:providerSid/release`,
    { config: ADMIN_ONLY, schema: { params: ReleaseParams, body: ReleaseBody, response: { 200: MessageResponse } } },
    async (req) => answering(numbers.release(currentUser(req), req.params.providerSid, req.body.phoneNumber.trim())),
  );

  app.get(`/api/admin/${p}-usage`, { config: ADMIN_ONLY, schema: { response: { 200: ApiUsageSchema } } }, async () => answering(numbers.usage()));
}

/**
 * SPEC.md §7: the owner's numbers and purchase, and the admin's numbers, release and usage.
 * Encapsulated and declared to need the `numbers` service.
 */
export const numberRoutes = fp(
  async (app: App) => {
    await app.register(ownerNumberRoutes);
    await app.register(adminNumberRoutes);
  },
  { name: 'number-routes', dependencies: ['numbers'], encapsulate: true },
);
