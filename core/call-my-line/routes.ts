import { eq } from 'drizzle-orm';
import { ApiErrorSchema } from '../../contract/schemas/shared.js';
import { CallMyLineCredentialsSchema, type ApiCallMyLineCredentials } from '../../contract/schemas/call-my-line.js';
import { tablesOf } from '../db/schema.js';
import { badRequest, conflict, forbidden, HttpError } from '../http/errors.js';
import type { App } from '../http/fastify-types.js';
import { failureCounter } from '../http/rate-limits.js';
import { currentUser } from '../http/session-hook.js';
import { CallMyLineBusy, type CallMyLineRegistry } from './registry.js';
import { turnCredentials } from './turn.js';

// The routes keep their first name (POST /api/test-call, its WebSocket below): the console, reverse
// proxies in front of installed boxes and operators' firewalls use these paths.
export const CALL_MY_LINE_WS_PREFIX = '/api/test-call/ws/';

/** The owner's number: the one a test call rings. */
async function ownerDid(db: App['services']['database']['db'], userId: number): Promise<string | undefined> {
  const { phoneNumbers } = tablesOf(db);
  const rows = await db.select({ number: phoneNumbers.phoneNumber }).from(phoneNumbers).where(eq(phoneNumbers.userId, userId)).limit(1);
  return rows[0]?.number;
}

/** POST /api/test-call: credentials for one browser call to the owner's own number ("Call my line"). */
export function callMyLineRoutes(registry: CallMyLineRegistry | null) {
  return async (app: App): Promise<void> => {
    // The limit's name is its counters' key in PostgreSQL (shared by a cluster's cores): kept as it was.
    const limit = app.rateLimits.testCallsPerOwner;
    // Presses that are served are counted (each makes an endpoint on Asterisk and, with TURN, a relay
    // credential); a refused one (409, 400) costs nothing.
    const presses = failureCounter(app, 'testCallsPerOwner', (req) => `owner:${req.user?.id}`);
    app.post(
      '/api/test-call',
      { schema: { response: { 200: CallMyLineCredentialsSchema, 400: ApiErrorSchema, 403: ApiErrorSchema, 409: ApiErrorSchema, 429: ApiErrorSchema, 503: ApiErrorSchema } } },
      async (req): Promise<ApiCallMyLineCredentials> => {
        const user = currentUser(req);
        if (user.accountStatus !== 'active') throw forbidden('Your account is not active, so it cannot take calls.');
        if (!registry) throw badRequest('Test calls are not set up on this appliance: the core is not connected to Asterisk (ARI_URL).');
        const did = await ownerDid(app.services.database.db, user.id);
        if (!did) throw badRequest('You have no phone number yet: get one on Phone Numbers first.');
        let issued;
        try {
          // Checked and counted in the owner's turn (the registry serves an owner's presses one by one), so parallel presses cannot all pass the check first.
          issued = await registry.issue(user.id, did, async () => {
            await presses.check(req, (wait) => `You can make ${limit.max} test calls an hour. Please wait ${wait} and try again.`);
            await presses.failed(req);
          });
        } catch (err) {
          if (err instanceof HttpError) throw err;
          if (err instanceof CallMyLineBusy) throw conflict('A test call is already in progress.');
          req.log.warn({ err }, 'could not make a Call my line endpoint on Asterisk');
          throw new HttpError(503, 'The phone system is not reachable just now. Try again in a minute.');
        }
        const turn = app.services.config.turn;
        const relay = turn ? turnCredentials(turn, user.id, issued.expiresAt) : undefined;
        // By user name only: coturn logs the same name, so its sessions can be traced to the call.
        if (relay) app.services.log.info({ userId: user.id, endpoint: issued.name, turnUser: relay.username }, 'TURN credentials issued with a test call');
        return {
          wsPath: `${CALL_MY_LINE_WS_PREFIX}${issued.name}`,
          sipUri: `sip:${did}@callkeeper.invalid`,
          user: issued.name,
          password: issued.password,
          iceServers: relay ? [relay] : [],
          expires: issued.expiresAt,
        };
      },
    );
  };
}
