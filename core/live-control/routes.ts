import { and, eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { LiveLineSchema, TakeOverBody, TakeOverResponse, type ApiLiveLine, type ApiTakeOverResponse } from '../../contract/schemas/listen.js';
import { ApiErrorSchema, IdParams } from '../../contract/schemas/shared.js';
import { turnCredentials } from '../call-my-line/turn.js';
import { tablesOf } from '../db/schema.js';
import { HttpError } from '../http/errors.js';
import type { App } from '../http/fastify-types.js';
import { failureCounter } from '../http/rate-limits.js';
import { currentUser } from '../http/session-hook.js';
import type { LiveCallControl, LiveLinePurpose } from '../ports/live-listen.js';
import { ownRowsOnly } from '../team/staff-scope.js';
import { LiveLineBusy, type LiveLineRegistry } from './line-registry.js';
import { actorName, liveRefusal, spokenName } from './refusals.js';

/** The path of a live line's SIP WebSocket (the same proxy as Call my line's: core/call-my-line/ws-proxy.ts). */
export const LIVE_LINE_WS_PREFIX = '/api/live/ws/';

const ERRORS = { 400: ApiErrorSchema, 403: ApiErrorSchema, 404: ApiErrorSchema, 409: ApiErrorSchema, 429: ApiErrorSchema, 503: ApiErrorSchema };

export interface LiveControlRouteDeps {
  lines: LiveLineRegistry | null;
  control: LiveCallControl | null;
}

/** POST /api/live/calls/:id/listen and /take-over (issue 54): the owner listens in to, or takes over, a call in progress. */
export function liveControlRoutes(deps: LiveControlRouteDeps) {
  return async (app: App): Promise<void> => {
    const { database, config } = app.services;
    const limit = app.rateLimits.liveControlPerOwner;
    // Counted when served (each makes an endpoint on Asterisk, a TURN credential, perhaps a call to the owner's phone); a refusal costs nothing.
    const presses = failureCounter(app, 'liveControlPerOwner', (req) => `login:${req.user?.id}:${req.staff?.staffId ?? 'owner'}`);
    const tooMany = (wait: string) => `You can listen in or take over ${limit.max} times an hour. Please wait ${wait} and try again.`;

    /** The call as this viewer may see it (the business's, and a staff member's own when their view is 'own'), checked against the rules. */
    async function admitted(req: FastifyRequest, id: number, purpose: LiveLinePurpose) {
      const user = currentUser(req);
      const { calls } = tablesOf(database.db);
      const staffId = ownRowsOnly(req.staff);
      const call = (
        await database.db
          .select({ id: calls.id, endedAt: calls.endedAt, mode: calls.mode, channelId: calls.channelId, node: calls.node, takenOverBy: calls.takenOverBy })
          .from(calls)
          .where(and(eq(calls.id, id), eq(calls.userId, user.id), staffId === undefined ? undefined : eq(calls.staffId, staffId)))
          .limit(1)
      )[0];
      const refusal = liveRefusal(purpose, {
        call,
        node: config.node,
        pbx: deps.lines !== null && deps.control !== null,
        full: deps.control?.full(),
        agent: purpose === 'take-over' && call ? deps.control?.takeOverRefusal(call.id) : undefined,
      });
      if (refusal) throw new HttpError(refusal.status, refusal.message);
      await presses.check(req, tooMany);
      return { user, call: call!, byName: actorName(req.staff), spoken: spokenName(req.staff, user.businessName) };
    }

    async function line(req: FastifyRequest, id: number, purpose: LiveLinePurpose, callerChannelId: string, byName: string, spokenName: string): Promise<ApiLiveLine> {
      const user = currentUser(req);
      const loginUserId = req.staff?.loginUserId ?? user.id;
      let issued;
      try {
        issued = await deps.lines!.issue({ purpose, callId: id, userId: user.id, loginUserId, byName, spokenName, callerChannelId });
      } catch (err) {
        if (err instanceof LiveLineBusy) throw new HttpError(409, purpose === 'listen' ? 'You are already listening to this call.' : 'You are already taking this call over.');
        req.log.warn({ err }, 'could not make a live-call line on Asterisk');
        throw new HttpError(503, 'The phone system is not reachable just now. Try again in a minute.');
      }
      await presses.failed(req);
      const relay = config.turn ? turnCredentials(config.turn, loginUserId, issued.expiresAt) : undefined;
      if (relay) app.services.log.info({ userId: user.id, callId: issued.callId, endpoint: issued.name, turnUser: relay.username }, 'TURN credentials issued with a live-call line');
      return {
        wsPath: `${LIVE_LINE_WS_PREFIX}${issued.name}`,
        // What the browser rings is not a number: the line is bound to its call on the core, and the dialplan takes only this name.
        sipUri: `sip:${purpose}@callkeeper.invalid`,
        user: issued.name,
        password: issued.password,
        iceServers: relay ? [relay] : [],
        expires: issued.expiresAt,
        callId: issued.callId,
      };
    }

    app.post('/api/live/calls/:id/listen', { schema: { params: IdParams, response: { 200: LiveLineSchema, ...ERRORS } } }, async (req): Promise<ApiLiveLine> => {
      const { call, byName, spoken } = await admitted(req, req.params.id, 'listen');
      return line(req, req.params.id, 'listen', call.channelId!, byName, spoken);
    });

    app.post(
      '/api/live/calls/:id/take-over',
      { schema: { params: IdParams, body: TakeOverBody, response: { 200: TakeOverResponse, ...ERRORS } } },
      async (req): Promise<ApiTakeOverResponse> => {
        const { call, byName, spoken } = await admitted(req, req.params.id, 'take-over');
        if (req.body.via === 'browser') return { via: 'browser', line: await line(req, req.params.id, 'take-over', call.channelId!, byName, spoken) };
        const started = await deps.control!.takeOverByPhone(call.id, { name: byName, spoken });
        if (started === 'no-phone') throw new HttpError(409, 'There is no phone to put calls through to: add your number under Call handling (put-through), then try again.');
        await presses.failed(req);
        return { via: 'phone', message: 'Calling your phone now: answer it to take the call.' };
      },
    );
  };
}
