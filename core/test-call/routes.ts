import { eq } from 'drizzle-orm';
import { ApiErrorSchema } from '../../contract/schemas/shared.js';
import { TestCallCredentialsSchema, type ApiTestCallCredentials } from '../../contract/schemas/test-call.js';
import { phoneNumbers } from '../db/schema.js';
import { badRequest, conflict, forbidden, HttpError } from '../http/errors.js';
import type { App } from '../http/fastify-types.js';
import { currentUser } from '../http/session-hook.js';
import { TestCallBusy, type TestCallRegistry } from './registry.js';
import { turnCredentials } from './turn.js';

export const TEST_CALL_WS_PREFIX = '/api/test-call/ws/';

/** The owner's number: the one a test call rings. */
export async function ownerDid(db: App['services']['database']['db'], userId: number): Promise<string | undefined> {
  const rows = await db.select({ number: phoneNumbers.phoneNumber }).from(phoneNumbers).where(eq(phoneNumbers.userId, userId)).limit(1);
  return rows[0]?.number;
}

/** POST /api/test-call: credentials for one browser call to the owner's own number ("Call my line"). */
export function testCallRoutes(registry: TestCallRegistry | null) {
  return async (app: App): Promise<void> => {
    app.post(
      '/api/test-call',
      { schema: { response: { 200: TestCallCredentialsSchema, 400: ApiErrorSchema, 403: ApiErrorSchema, 409: ApiErrorSchema, 503: ApiErrorSchema } } },
      async (req): Promise<ApiTestCallCredentials> => {
        const user = currentUser(req);
        if (user.accountStatus !== 'active') throw forbidden('Your account is not active, so it cannot take calls.');
        if (!registry) throw badRequest('Test calls are not set up on this appliance: the core is not connected to Asterisk (ARI_URL).');
        const did = await ownerDid(app.services.database.db, user.id);
        if (!did) throw badRequest('You have no phone number yet: get one on Phone Numbers first.');
        try {
          const issued = await registry.issue(user.id, did);
          const turn = app.services.config.turn;
          return {
            wsPath: `${TEST_CALL_WS_PREFIX}${issued.name}`,
            sipUri: `sip:${did}@callkeeper.invalid`,
            user: issued.name,
            password: issued.password,
            iceServers: turn ? [turnCredentials(turn, issued.name, app.services.now())] : [],
            expires: issued.expiresAt,
          };
        } catch (err) {
          if (err instanceof TestCallBusy) throw conflict('A test call is already in progress.');
          req.log.warn({ err }, 'could not make a test-call endpoint on Asterisk');
          throw new HttpError(503, 'The phone system is not reachable just now. Try again in a minute.');
        }
      },
    );
  };
}
