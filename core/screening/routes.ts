import { and, eq } from 'drizzle-orm';
import { formatPhone, toE164 } from '../../contract/phone.js';
import { isWithheldCaller } from '../../contract/withheld.js';
import { ApiErrorSchema, IdParams, MessageResponse } from '../../contract/schemas/shared.js';
import {
  BoxListQuery,
  BoxListResponse,
  BoxMarksResponse,
  BoxNumberParams,
  BoxThresholdsSchema,
  MarkSpamBody,
  MarkSpamResponse,
  ScreeningNumberBody,
  ScreeningResponse,
  ScreeningUpdateBody,
  type ApiBoxList,
  type ApiBoxMarks,
  type ApiMarkSpamResponse,
  type ApiScreening,
} from '../../contract/schemas/screening.js';
import { tablesOf } from '../db/schema.js';
import { ADMIN_ONLY } from '../http/access-guard.js';
import { badRequest, notFound } from '../http/errors.js';
import type { App } from '../http/fastify-types.js';
import { currentUser } from '../http/session-hook.js';
import { boxMarks, clearBoxEntry, listBoxEntries } from './box-list.js';
import { markNumber, ownerScreening, setScreenAction, unmarkNumber } from './marks.js';
import { getThresholds, setThresholds } from './thresholds.js';
import { boxListed, MARK_WINDOW_DAYS } from './verdict.js';

const SCREENING_MESSAGES = {
  callNotFound: 'Call not found.',
  withheld: 'This caller withheld their number, so there is no number to mark.',
  markedSpam: (n: string) => `${n} is marked as spam: their next calls are screened before they reach you.`,
  markedAllow: (n: string) => `${n} is marked as not spam: their calls always reach you.`,
  action: 'Choose what screened callers get: reject or message.',
  notANumber: (raw: string) => `"${raw}" is not a phone number.`,
  thresholds: 'Each threshold must be a whole number of businesses from 2 to 100.',
  noEntry: 'That number is not on the box-wide list.',
  boxNumber: 'Give the number in the address as digits, e.g. 07700900123 or +447700900123.',
} as const;

/** Schema errors on these routes answer the sentence the console shows, not AJV's. */
const plainMessage =
  (message: string): NonNullable<Parameters<App['put']>[1]>['errorHandler'] =>
  (error, _req, reply) => {
    if (!error.validation) throw error;
    return reply.status(400).send({ message });
  };

/**
 * Issue 43: the owner marks a call's number SPAM or NOT SPAM and chooses what screened callers
 * get; the admin sees and clears the box-wide list and sets its threshold. Issue 53: the list is
 * counted from the marks when asked, and the admin can see the marks behind one number.
 */
export async function screeningRoutes(app: App): Promise<void> {
  const { database, now } = app.services;
  const db = database.db;
  const { calls } = tablesOf(db);

  app.post(
    '/api/call-logs/:id/spam',
    { schema: { params: IdParams, body: MarkSpamBody, response: { 200: MarkSpamResponse, 400: ApiErrorSchema } }, errorHandler: plainMessage('Send {"spam": true} or {"spam": false}.') },
    async (req): Promise<ApiMarkSpamResponse> => {
      const user = currentUser(req);
      // Scoped in SQL: another business's call answers exactly like a missing one.
      const call = (await db.select({ fromNumber: calls.fromNumber }).from(calls).where(and(eq(calls.id, req.params.id), eq(calls.userId, user.id))).limit(1))[0];
      if (!call) throw notFound(SCREENING_MESSAGES.callNotFound);
      const number = isWithheldCaller(call.fromNumber) ? null : (toE164(call.fromNumber) ?? call.fromNumber);
      if (!number) throw badRequest(SCREENING_MESSAGES.withheld);
      const verdict = req.body.spam ? 'spam' : 'allow';
      await markNumber(db, user.id, number, verdict, now());
      const shown = formatPhone(number);
      return { number, verdict, message: verdict === 'spam' ? SCREENING_MESSAGES.markedSpam(shown) : SCREENING_MESSAGES.markedAllow(shown) };
    },
  );

  app.get('/api/user/screening', { schema: { response: { 200: ScreeningResponse } } }, async (req): Promise<ApiScreening> => ownerScreening(db, currentUser(req).id));

  app.put(
    '/api/user/screening',
    { schema: { body: ScreeningUpdateBody, response: { 200: ScreeningResponse, 400: ApiErrorSchema } }, errorHandler: plainMessage(SCREENING_MESSAGES.action) },
    async (req): Promise<ApiScreening> => {
      const user = currentUser(req);
      await setScreenAction(db, user.id, req.body.action);
      return { ...(await ownerScreening(db, user.id)), message: 'Screening saved' };
    },
  );

  app.delete(
    '/api/user/screening/marks',
    { schema: { body: ScreeningNumberBody, response: { 200: ScreeningResponse, 400: ApiErrorSchema } }, errorHandler: plainMessage('Give the phone number as text, e.g. 07700 900123.') },
    async (req): Promise<ApiScreening> => {
      const user = currentUser(req);
      const number = toE164(req.body.number);
      if (!number) throw badRequest(SCREENING_MESSAGES.notANumber(req.body.number), { number: SCREENING_MESSAGES.notANumber(req.body.number) });
      await unmarkNumber(db, user.id, number);
      return { ...(await ownerScreening(db, user.id)), message: `${formatPhone(number)} is off your lists.` };
    },
  );

  const boxList = async (limit: number, q?: string): Promise<ApiBoxList> => {
    const thresholds = await getThresholds(db);
    const page = await listBoxEntries(db, { limit, q, now: now(), thresholds });
    return {
      thresholds,
      entries: page.entries.map((e) => ({ ...e, clearedAt: e.clearedAt ? e.clearedAt.toISOString() : null })),
      total: page.total,
      listed: page.listed,
    };
  };

  app.get(
    '/api/admin/screening',
    { config: ADMIN_ONLY, schema: { querystring: BoxListQuery, response: { 200: BoxListResponse, 400: ApiErrorSchema } }, errorHandler: plainMessage('limit must be 1 to 500, and q at most 20 characters.') },
    async (req) => boxList(req.query.limit ?? 100, req.query.q?.replace(/\D/g, '') || undefined),
  );

  app.put(
    '/api/admin/screening/thresholds',
    { config: ADMIN_ONLY, schema: { body: BoxThresholdsSchema, response: { 200: BoxListResponse, 400: ApiErrorSchema } }, errorHandler: plainMessage(SCREENING_MESSAGES.thresholds) },
    async (req) => {
      await setThresholds(db, req.body, now());
      return { ...(await boxList(100)), message: 'Thresholds saved' };
    },
  );

  const boxNumber = (raw: string): string => {
    const number = toE164(raw);
    if (!number) throw badRequest(SCREENING_MESSAGES.notANumber(raw));
    return number;
  };

  app.get(
    '/api/admin/screening/:number',
    { config: ADMIN_ONLY, schema: { params: BoxNumberParams, response: { 200: BoxMarksResponse, 400: ApiErrorSchema } }, errorHandler: plainMessage(SCREENING_MESSAGES.boxNumber) },
    async (req): Promise<ApiBoxMarks> => {
      const number = boxNumber(req.params.number);
      const { marks, clearedAt } = await boxMarks(db, number, now());
      if (marks.length === 0) throw notFound(SCREENING_MESSAGES.noEntry);
      const businesses = new Set(marks.filter((m) => m.standing === 'counts').map((m) => m.userId)).size;
      return {
        number,
        businesses,
        listed: boxListed(businesses, await getThresholds(db)),
        clearedAt: clearedAt ? clearedAt.toISOString() : null,
        windowDays: MARK_WINDOW_DAYS,
        marks: marks.map((m) => ({ ...m, markedAt: m.markedAt.toISOString() })),
      };
    },
  );

  app.delete(
    '/api/admin/screening/:number',
    { config: ADMIN_ONLY, schema: { params: BoxNumberParams, response: { 200: MessageResponse, 400: ApiErrorSchema } }, errorHandler: plainMessage(SCREENING_MESSAGES.boxNumber) },
    async (req) => {
      const number = boxNumber(req.params.number);
      if (!(await clearBoxEntry(db, number, now()))) throw notFound(SCREENING_MESSAGES.noEntry);
      return { message: `${formatPhone(number)} is cleared from the box-wide list.` };
    },
  );
}
