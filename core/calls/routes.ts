import { IdParams } from '../../contract/schemas/shared.js';
import { ApiCallLogsResponseSchema, CalledBackBody, CalledBackResponse, CallLogResponse, CallLogsQuery, RecordingParams } from '../../contract/schemas/calls.js';
import type { App } from '../http/fastify-types.js';
import { badRequest, notFound } from '../http/errors.js';
import { currentUser } from '../http/session-hook.js';
import { ownRowsOnly, personFilter } from '../team/staff-scope.js';
import { checkPersonFilter } from '../team/staff-scope-store.js';
import type { FastifyRequest } from 'fastify';
import { decodeCallLogCursor } from './call-log-cursor.js';
import { type CallScope, DEFAULT_CALL_LOG_LIMIT, listCallLogs, MAX_CALL_LOG_LIMIT, ownedCallLog, ownedRecordingFile, setCalledBack } from './queries.js';
import { registerRecordingFiles, sendRecording } from './serve-recording.js';

const RECORDING_NOT_FOUND = 'Recording not found.';
const CALL_NOT_FOUND = 'Call not found.';

/** One call's scope: the business's, and for a staff member with view 'own' only theirs (another's answers 404, as a missing one). */
function oneCallScope(req: FastifyRequest): CallScope {
  const staffId = ownRowsOnly(req.staff);
  return { userId: currentUser(req).id, ...(staffId === undefined ? {} : { staffId }) };
}

/** SPEC.md §7 "GET /api/call-logs" and the recording behind each recordingUrl. */
export async function callLogRoutes(app: App): Promise<void> {
  const { database, config } = app.services;
  await registerRecordingFiles(app);

  app.get(
    '/api/call-logs',
    {
      schema: {
        querystring: CallLogsQuery(MAX_CALL_LOG_LIMIT),
        // A response schema also makes serialisation fast (fast-json-stringify) for long lists.
        response: { 200: ApiCallLogsResponseSchema },
      },
    },
    async (req) => {
      const user = currentUser(req);
      const before = req.query.before === undefined ? undefined : decodeCallLogCursor(req.query.before);
      if (req.query.before !== undefined && !before) throw badRequest('before must be a nextCursor value from an earlier page');
      const person = personFilter(req.staff, req.query.staffId);
      if (person.kind === 'none') return { callLogs: [], nextCursor: null };
      await checkPersonFilter(database.db, user.id, person);
      // Admins have no calls of their own: scoping by their id returns an empty list.
      const scope = { userId: user.id, ...(person.kind === 'person' ? { staffId: person.staffId } : {}) };
      return listCallLogs(database.db, scope, { limit: req.query.limit ?? DEFAULT_CALL_LOG_LIMIT, before });
    },
  );

  // One call: a link from a summary e-mail (/dashboard?call=41) to a call older than the loaded pages.
  app.get('/api/call-logs/:id', { schema: { params: IdParams, response: { 200: CallLogResponse } } }, async (req) => {
    const callLog = await ownedCallLog(database.db, oneCallScope(req), req.params.id);
    if (!callLog) throw notFound(CALL_NOT_FOUND);
    return { callLog };
  });

  // The "To call back" tracker: the console's Mark called back button (DONE by text does the same).
  app.patch(
    '/api/call-logs/:id/called-back',
    {
      schema: {
        params: IdParams,
        body: CalledBackBody,
        response: { 200: CalledBackResponse },
      },
    },
    async (req) => {
      const callLog = await setCalledBack(database.db, oneCallScope(req), req.params.id, req.body.calledBack, app.services.now());
      if (!callLog) throw notFound(CALL_NOT_FOUND);
      return { callLog, message: req.body.calledBack ? 'Marked as called back' : 'Marked as still to call back' };
    },
  );

  app.get(
    '/api/call-logs/:id/recording',
    { schema: { params: RecordingParams }, config: { rawReply: true } },
    async (req, reply) => {
      const id = /^[1-9]\d{0,14}$/.test(req.params.id) ? Number(req.params.id) : undefined;
      // Someone else's call answers exactly like a missing one (404, not 403): ids do not leak.
      const file = id === undefined ? undefined : await ownedRecordingFile(database.db, oneCallScope(req), id);
      if (!file) throw notFound(RECORDING_NOT_FOUND);
      const sent = await sendRecording(reply, config.dataDir, file, `call-${id}`);
      if (!sent) {
        req.log.warn({ callId: id }, 'call row names a recording that is not on disk');
        throw notFound(RECORDING_NOT_FOUND);
      }
      return reply;
    },
  );
}
