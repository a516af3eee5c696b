import { ApiErrorSchema } from '../../contract/schemas/shared.js';
import { ConfirmDestinationBody, ConfirmDestinationResponse, PendingDestinationsResponse } from '../../contract/schemas/destinations.js';
import { eq } from 'drizzle-orm';
import { toApiUser } from '../accounts/users.js';
import { tablesOf } from '../db/schema.js';
import { badRequest } from '../http/errors.js';
import type { App } from '../http/fastify-types.js';
import { currentUser } from '../http/session-hook.js';
import { confirmDestination, pendingDestinations } from './pending.js';

const WHAT = { sms: 'number', email: 'address' } as const;

/** GET /api/user/destinations and POST /api/user/destinations/confirm (issue 24 item 4). */
export async function destinationRoutes(app: App): Promise<void> {
  const { database } = app.services;

  app.get('/api/user/destinations', { schema: { response: { 200: PendingDestinationsResponse } } }, async (req) => {
    const rows = await pendingDestinations(database.db, currentUser(req).id, app.services.now());
    return { pending: rows.map((r) => ({ kind: r.kind, destination: r.destination, expiresAt: r.expiresAt.toISOString() })) };
  });

  app.post(
    '/api/user/destinations/confirm',
    { schema: { body: ConfirmDestinationBody, response: { 200: ConfirmDestinationResponse, 400: ApiErrorSchema } } },
    async (req) => {
      const user = currentUser(req);
      const { kind, code } = req.body;
      const result = await confirmDestination(database.db, user.id, kind, code, app.services.now());
      const what = WHAT[kind];
      switch (result.verdict) {
        case 'none':
          throw badRequest(`There is no new ${what} waiting to be confirmed. Save it under Notification Settings first.`);
        case 'expired':
          throw badRequest(`That code has expired. Save the ${what} again to get a new code.`);
        case 'too-many':
          throw badRequest(`Too many wrong codes. Save the ${what} again to get a new code.`);
        case 'wrong':
          throw badRequest('That code is not right. Check the latest code we sent and try again.', { code: 'Enter the 6-digit code we sent' });
        case 'confirmed': {
          const message =
            kind === 'sms' ? `Notification number confirmed: call notifications now go to ${result.destination}.` : `Summary e-mail confirmed: call summaries now go to ${result.destination}.`;
          const { users } = tablesOf(database.db);
          const updated = (await database.db.select().from(users).where(eq(users.id, user.id)).limit(1))[0]!;
          return { user: toApiUser(updated), message };
        }
      }
    },
  );
}
