import { eq } from 'drizzle-orm';
import { TEXT_BACK_HOURS, type TextBackHours } from '../../contract/enums.js';
import { isUkMobile, toE164 } from '../../contract/phone.js';
import {
  ApiCallerThreadSchema, ApiOptOutListSchema, ApiTextBackSchema, ApiThreadListSchema, OwnerTextBody, OwnerTextResponse, TextBackUpdateBody, ThreadQuery,
  type ApiCallerText,
} from '../../contract/schemas/caller-texts.js';
import { ApiErrorSchema } from '../../contract/schemas/shared.js';
import type { CallerText } from '../db/schema.js';
import { tablesOf } from '../db/schema.js';
import { badRequest, conflict, HttpError, notFound, tooManyRequests } from '../http/errors.js';
import type { App } from '../http/fastify-types.js';
import { currentUser } from '../http/session-hook.js';
import { callerInView, ownRowsOnly } from '../team/staff-scope.js';
import { callersInView } from '../team/staff-scope-store.js';
import { knownNameOfCaller } from '../booking/store/bookings.js';
import { hasBeenInTouch, listThreads, loadTextBack, loadThread, optedOut, saveTextBack, senderFor } from './store.js';
import { defaultTextBackWording, MAX_WORDING, WINDOW_HOURS } from './text-back-rule.js';

const toApiText = (t: CallerText): ApiCallerText => ({
  id: t.id, kind: t.kind, status: t.status, body: t.body, segments: t.segments, error: t.error, createdAt: t.createdAt.toISOString(),
});

/** A caller's number from the console, in any UK spelling; a 400 that says what is wanted otherwise. */
function callerOf(raw: string): string {
  const n = toE164(raw);
  if (!n) throw badRequest('Caller must be a phone number, e.g. 07700 900123');
  return n;
}

/** The owner's side of texts with callers: the text-back settings, threads, answers and who opted out. */
export async function callerTextRoutes(app: App): Promise<void> {
  const { database, callerTexts, now } = app.services;
  const db = database.db;
  const { users } = tablesOf(db);

  const textBackView = async (userId: number) => {
    const owner = (await db.select({ businessName: users.businessName }).from(users).where(eq(users.id, userId)).limit(1))[0];
    return { settings: await loadTextBack(db, userId), defaultWording: defaultTextBackWording(owner?.businessName ?? null) };
  };

  app.get('/api/user/text-back', { schema: { response: { 200: ApiTextBackSchema } } }, async (req) => textBackView(currentUser(req).id));

  app.put('/api/user/text-back', { schema: { body: TextBackUpdateBody, response: { 200: ApiTextBackSchema, 400: ApiErrorSchema } } }, async (req) => {
    const user = currentUser(req);
    const b = req.body;
    const wording = b.wording?.trim() ? b.wording.trim() : null;
    if (wording && wording.length > MAX_WORDING) throw badRequest(`The text-back wording must be at most ${MAX_WORDING} characters`, { wording: `At most ${MAX_WORDING} characters` });
    if (!Number.isInteger(b.windowHours) || b.windowHours < WINDOW_HOURS.min || b.windowHours > WINDOW_HOURS.max) {
      throw badRequest(`Texting the same caller again must wait a whole number of hours from ${WINDOW_HOURS.min} to ${WINDOW_HOURS.max}`, { windowHours: 'Hours from 1 to 720' });
    }
    if (!(TEXT_BACK_HOURS as readonly string[]).includes(b.hours)) throw badRequest(`When to text back must be one of ${TEXT_BACK_HOURS.join(', ')}`);
    await saveTextBack(db, user.id, { enabled: b.enabled, wording, windowHours: b.windowHours, hours: b.hours as TextBackHours }, now());
    return textBackView(user.id);
  });

  app.get('/api/user/caller-texts', { schema: { response: { 200: ApiThreadListSchema } } }, async (req) => {
    const inView = await callersInView(db, currentUser(req).id, req.staff);
    return {
      threads: (await listThreads(db, currentUser(req).id))
        .filter((t) => callerInView(inView, t.callerNumber))
        .map((t) => ({ ...t, lastAt: t.lastAt.toISOString() })),
    };
  });

  app.get('/api/user/caller-texts/thread', { schema: { querystring: ThreadQuery, response: { 200: ApiCallerThreadSchema, 400: ApiErrorSchema, 404: ApiErrorSchema } } }, async (req) => {
    const caller = callerOf(req.query.caller);
    const inView = await callersInView(db, currentUser(req).id, req.staff);
    // As a caller with no thread at all would be to someone outside the business: nothing to see.
    if (!callerInView(inView, caller)) throw notFound('No texts with this caller.');
    const t = await loadThread(db, currentUser(req).id, caller);
    const own = ownRowsOnly(req.staff);
    return {
      callerNumber: caller,
      callerName: await knownNameOfCaller(db, currentUser(req).id, caller),
      optedOutAt: t.optedOutAt?.toISOString() ?? null,
      texts: t.texts.map(toApiText),
      // The caller's calls that were someone else's stay out of a view of one's own.
      calls: t.calls.filter((c) => own === undefined || c.staffId === own).map((c) => ({ id: c.id, createdAt: c.createdAt.toISOString(), status: c.status, duration: c.duration })),
    };
  });

  app.post(
    '/api/user/caller-texts/thread',
    { schema: { body: OwnerTextBody, response: { 200: OwnerTextResponse, 400: ApiErrorSchema, 409: ApiErrorSchema, 429: ApiErrorSchema, 502: ApiErrorSchema } } },
    async (req) => {
      const user = currentUser(req);
      const caller = callerOf(req.body.caller);
      const body = req.body.body.trim();
      if (!body) throw badRequest('Write the text first', { body: 'Write the text first' });
      if (body.length > MAX_WORDING) throw badRequest(`A text must be at most ${MAX_WORDING} characters`, { body: `At most ${MAX_WORDING} characters` });
      if (!isUkMobile(caller)) throw badRequest('Texts go only to UK mobile numbers (07…)');
      if (!(await hasBeenInTouch(db, user.id, caller))) {
        throw badRequest(`Texts go only to people who have called or texted your business or booked with it, and ${caller} has not`, { caller: 'Not one of your callers' });
      }
      const from = await senderFor(db, user.id, caller);
      if (!from) throw badRequest('Your account has no phone number to text from yet: get one under Phone Numbers');
      const r = await callerTexts.road.send({ userId: user.id, to: caller, from, kind: 'owner', body, key: `owner:${crypto.randomUUID()}`, retry: false });
      if (r.outcome === 'refused') {
        if (r.reason === 'opted-out') throw conflict(r.message);
        if (r.reason === 'owner-cap' || r.reason === 'box-cap') throw tooManyRequests(r.message);
        throw badRequest(r.message);
      }
      if (r.outcome === 'failed') throw new HttpError(502, `The text was not sent: ${r.text.error ?? 'the provider refused it'}`);
      return { text: toApiText(r.text), message: 'Text sent' };
    },
  );

  app.get('/api/user/caller-opt-outs', { schema: { response: { 200: ApiOptOutListSchema } } }, async (req) => ({
    optOuts: (await optedOut(db, currentUser(req).id)).map((o) => ({ callerNumber: o.callerNumber, word: o.word, optedOutAt: o.optedOutAt.toISOString() })),
  }));
}
