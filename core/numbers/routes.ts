import {
  ApiUsageSchema,
  PhoneNumbersResponse,
  ProviderNumbersResponse,
  PurchaseResponse,
  ReleaseBody,
  ReleaseParams,
} from '../../contract/schemas/numbers.js';
import { MessageResponse } from '../../contract/schemas/shared.js';
import type { App } from '../http/fastify-types.js';
import { currentUser, requireAdmin, requireUser } from '../http/session-hook.js';
import { createNumberService } from './factory.js';

/**
 * SPEC.md §7: the owner's numbers and purchase, and the admin's numbers, release and usage.
 * The admin paths carry the configured provider's name (/api/admin/static-numbers or
 * /api/admin/twilio-numbers); the other provider's paths are simply not registered (404).
 */
export async function numberRoutes(app: App): Promise<void> {
  const services = app.services;
  services.numbers ??= createNumberService(services);
  const numbers = services.numbers;
  const p = numbers.providerName;

  app.get('/api/phone-numbers', { schema: { response: { 200: PhoneNumbersResponse } }, preHandler: requireUser }, async (req) => ({
    numbers: numbers.ownerNumbers(currentUser(req).id),
  }));

  app.post('/api/phone-numbers/purchase', { schema: { response: { '2xx': PurchaseResponse } }, preHandler: requireUser }, async (req, reply) => {
    const { number, message, created } = await numbers.purchase(currentUser(req));
    return reply.status(created ? 201 : 200).send({ number, message });
  });

  app.get(`/api/admin/${p}-numbers`, { schema: { response: { 200: ProviderNumbersResponse } }, preHandler: requireAdmin }, async () => numbers.adminList());

  app.post(
    `/api/admin/${p}-numbers/:providerSid/release`,
    { preHandler: requireAdmin, schema: { params: ReleaseParams, body: ReleaseBody, response: { 200: MessageResponse } } },
    async (req) => numbers.release(currentUser(req), req.params.providerSid, req.body.phoneNumber.trim()),
  );

  app.get(`/api/admin/${p}-usage`, { schema: { response: { 200: ApiUsageSchema } }, preHandler: requireAdmin }, async () => numbers.usage());
}
