import { eq } from 'drizzle-orm';
import { toE164 } from '../../contract/phone.js';
import { ForwardingCheckResponse, ForwardingCheckStarted, type ApiForwardingCheck, type ApiForwardingCheckStarted } from '../../contract/schemas/forwarding-check.js';
import { ApiErrorSchema, IdParams } from '../../contract/schemas/shared.js';
import { ownerDid } from '../call-handling/index.js';
import { tablesOf } from '../db/schema.js';
import { badRequest, conflict, forbidden, HttpError, notFound, tooManyRequests } from '../http/errors.js';
import type { App } from '../http/fastify-types.js';
import { routeLimit } from '../http/rate-limits.js';
import { currentUser } from '../http/session-hook.js';
import { operatorContact } from '../config/operator-contact.js';
import { outboundRefusalNow } from '../outbound/index.js';
import { forwardingCheckInProgress, readForwardingCheck } from './index.js';

const NO_LINE = 'Add your business phone number in Account Settings first: the check calls it.';

/**
 * "Check my forwarding" (Phone Numbers): POST starts a check and answers its id at once; the
 * console then reads GET /api/forwarding-check/:id until it is no longer 'calling'.
 */
export async function forwardingCheckRoutes(app: App): Promise<void> {
  const { database, now, config } = app.services;
  const db = database.db;
  const { users } = tablesOf(db);
  // One per owner at a time in this process; the database says so across processes.
  const starting = new Set<number>();
  const limit = app.rateLimits.forwardingChecksPerOwner;

  app.post(
    '/api/forwarding-check',
    {
      schema: { response: { 200: ForwardingCheckStarted, 400: ApiErrorSchema, 403: ApiErrorSchema, 409: ApiErrorSchema, 429: ApiErrorSchema } },
      config: {
        rateLimit: {
          ...routeLimit(limit, (req) => `owner:${req.user?.id}`, 'preHandler').rateLimit,
          errorResponseBuilder: (_req, ctx) => {
            const minutes = Math.max(1, Math.ceil(ctx.ttl / 60_000));
            return tooManyRequests(`You can check your forwarding ${limit.max} times an hour. Please wait ${minutes} minute${minutes === 1 ? '' : 's'} and try again.`, ctx.ttl / 1000);
          },
        },
      },
    },
    async (req): Promise<ApiForwardingCheckStarted> => {
      const user = currentUser(req);
      const start = app.forwardingCheck;
      if (!start) throw badRequest(`Checking forwarding needs calls out, which are not set up on this appliance: ask your operator, ${operatorContact(config.support)}, to set them up.`);
      const [owner] = await db.select({ phoneNumber: users.phoneNumber }).from(users).where(eq(users.id, user.id)).limit(1);
      const line = toE164(owner?.phoneNumber);
      if (!line) throw badRequest(NO_LINE);
      const did = await ownerDid(db, user.id);
      if (!did) throw badRequest('Your account has no phone number yet: get one above, then forward your line to it.');
      if (line === did) throw badRequest('Your business phone number is your appliance number: put the number your callers ring in Account Settings.');
      const refused = await outboundRefusalNow(db, user.id, line, config.outbound, now());
      if (refused?.kind === 'inactive') throw forbidden('Checking forwarding needs an active account. Please contact support to continue.');
      if (refused?.kind === 'not-dialable') throw badRequest(refused.message.replace('Calls are only put through to', 'The check only calls'));
      if (refused?.kind === 'daily-cap') throw tooManyRequests(refused.message);
      if (starting.has(user.id) || (await forwardingCheckInProgress(db, user.id, now()))) throw conflict('A forwarding check is already under way: wait for its result.');
      starting.add(user.id);
      try {
        const r = await start(user.id, line);
        switch (r.kind) {
          case 'started':
            return { id: r.id };
          case 'no-phone-number':
            throw badRequest('Your account has no phone number yet: get one above, then forward your line to it.');
          case 'pbx-down':
            throw new HttpError(503, 'The phone system is not connected right now. Please try again in a minute.');
          case 'not-placed':
            throw new HttpError(502, `The call to your line could not be placed: ask your operator, ${operatorContact(config.support)}, to check the line that makes calls out.`);
        }
      } finally {
        starting.delete(user.id);
      }
    },
  );

  app.get(
    '/api/forwarding-check/:id',
    { schema: { params: IdParams, response: { 200: ForwardingCheckResponse, 404: ApiErrorSchema } } },
    async (req): Promise<ApiForwardingCheck> => {
      const check = await readForwardingCheck(db, req.params.id, currentUser(req).id, now());
      if (!check) throw notFound('No such forwarding check.');
      return check;
    },
  );
}
