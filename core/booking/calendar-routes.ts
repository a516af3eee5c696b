import { ApiBookingCalendarSchema, ApiCalDavTestSchema, CalDavBody, IcalAddressBody, MemberCalendarBody } from '../../contract/schemas/booking.js';
import { ApiErrorSchema, IdParams } from '../../contract/schemas/shared.js';
import { badRequest, notFound } from '../http/errors.js';
import type { App } from '../http/fastify-types.js';
import { currentUser } from '../http/session-hook.js';
import { routeLimit } from '../http/rate-limits.js';
import { errorMessage } from '../logging/safe-errors.js';
import { calendarView, connectCalDav, disconnectCalDav, refusedCalendarAddress, regenerateFeedToken, setIcalAddress, testCalDav, type CalendarPlace } from './calendars/calendar-settings.js';
import { icalFoundSentence } from './rules/ical-found.js';
import { memberById } from './store/people.js';

// The calendars that block bookings (docs/booking.md): the owner's (`/api/user/booking/calendar`)
// and each team member's own (`/api/user/team/:id/calendar`, issue 58), through one set of
// checks, answers and the same guard, so the two can never differ. The owner's member keeps
// the owner's calendar. Passwords are never returned.

/** How long saving an iCal address waits for it to be read. */
const ICAL_CHECK_MS = 10_000;

function checkUrl(raw: string, what: string): URL {
  let url: URL;
  try {
    url = new URL(raw.trim().replace(/^webcals?:\/\//i, 'https://'));
  } catch {
    throw badRequest(`${what} must be a web address starting with https://`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw badRequest(`${what} must be a web address starting with https://`);
  return url;
}

const caldavInput = (b: { address: string; username: string; password: string }) => {
  if (!b.username.trim()) throw badRequest('Enter the user name of your calendar account.', { username: 'Required' });
  if (!b.password) throw badRequest('Enter the app password of your calendar account.', { password: 'Required' });
  const address = checkUrl(b.address, 'The CalDAV address');
  // Never echoed back: the message names the part, not what was typed.
  if (address.username || address.password) throw badRequest('The CalDAV address must not contain a user name or password: type them in their own boxes.', { address: 'No user name or password in the address' });
  return { address: address.toString(), username: b.username.trim(), password: b.password };
};

export async function calendarRoutes(app: App): Promise<void> {
  const { database, booking, now, config } = app.services;
  const db = database.db;

  const feedUrl = (token: string | null) => (token ? new URL(`/api/booking/feed/${token}.ics`, config.publicUrl).toString() : null);
  /** The answer of every calendar route; `trouble` is the owner's calendar's (a member's reads are not watched). */
  const calendarOf = async (place: CalendarPlace) => {
    const v = await calendarView(db, place);
    const trouble = place.staffId === undefined && (v.caldav || v.icalAddressSet) ? booking.calendarHealth.of(place.ownerId) : null;
    return {
      caldav: v.caldav, icalAddressSet: v.icalAddressSet, feedUrl: feedUrl(v.feedToken),
      trouble: trouble && { since: trouble.since.toISOString(), reason: trouble.reason },
    };
  };
  const changed = (place: CalendarPlace) => {
    if (place.staffId === undefined) booking.calendarHealth.forget(place.ownerId);
  };

  const checkedIcal = async (url: string) => {
    const signal = AbortSignal.timeout(ICAL_CHECK_MS);
    try {
      return icalFoundSentence(await booking.readIcalAddress(url, signal), now().getTime());
    } catch (err) {
      const why = signal.aborted ? `it did not answer within ${ICAL_CHECK_MS / 1000} seconds` : errorMessage(err);
      throw badRequest(`That iCal address could not be read: ${why}. Nothing was saved.`, { url: 'Could not be read' });
    }
  };

  const saveIcal = async (place: CalendarPlace, raw: string | null) => {
    const url = raw?.trim() ? checkUrl(raw, 'The iCal address').toString() : null;
    // An address the box may never reach is refused before any request, in the calendar's one sentence.
    const refused = url ? await refusedCalendarAddress(url, booking.calendarGuard) : null;
    if (refused) throw badRequest(refused, { url: refused });
    // Read once before it is kept, so a wrong or unreadable address is said now, not at the first call.
    const found = url ? await checkedIcal(url) : undefined;
    await setIcalAddress(db, booking.keys, place, url, now());
    changed(place);
    return { ...(await calendarOf(place)), icalFound: found };
  };

  const saveCalDav = async (place: CalendarPlace, body: { address: string; username: string; password: string }) => {
    const r = await connectCalDav(db, booking.keys, place, caldavInput(body), now(), AbortSignal.timeout(10_000), booking.calendarGuard);
    if (!r.ok) throw badRequest(r.message, { address: r.message });
    changed(place);
    return calendarOf(place);
  };

  const disconnect = async (place: CalendarPlace) => {
    await disconnectCalDav(db, place, now());
    changed(place);
    return calendarOf(place);
  };

  const own = (userId: number): CalendarPlace => ({ ownerId: userId });
  /** A current member's calendar; their owner's own when the member is the owner. */
  const memberPlace = async (ownerId: number, staffId: number): Promise<CalendarPlace> => {
    const m = await memberById(db, ownerId, staffId);
    if (!m || m.removedAt) throw notFound('No such person on your team.');
    return m.isOwner ? { ownerId } : { ownerId, staffId };
  };

  // Each test or save is the box making requests to an address the owner typed.
  const perOwner = routeLimit(app.rateLimits.calendarTestsPerOwner, (req) => `owner:${req.user?.id}`, 'preHandler');

  app.get('/api/user/booking/calendar', { schema: { response: { 200: ApiBookingCalendarSchema } } }, async (req) => calendarOf(own(currentUser(req).id)));

  app.put('/api/user/booking/calendar/ical', { schema: { body: IcalAddressBody, response: { 200: ApiBookingCalendarSchema, 400: ApiErrorSchema } } }, async (req) =>
    saveIcal(own(currentUser(req).id), req.body.url));

  app.post('/api/user/booking/calendar/feed', { schema: { response: { 200: ApiBookingCalendarSchema } } }, async (req) => {
    await regenerateFeedToken(db, currentUser(req).id, now());
    return calendarOf(own(currentUser(req).id));
  });

  app.post('/api/user/booking/calendar/caldav/test', { schema: { body: CalDavBody, response: { 200: ApiCalDavTestSchema, 400: ApiErrorSchema } }, config: perOwner }, async (req) => {
    const r = await testCalDav(caldavInput(req.body), AbortSignal.timeout(10_000), booking.calendarGuard);
    return r.ok ? { ok: true, calendar: r.name, message: `Connected to the calendar "${r.name}".` } : { ok: false, problem: r.problem, message: r.message };
  });

  app.put('/api/user/booking/calendar/caldav', { schema: { body: CalDavBody, response: { 200: ApiBookingCalendarSchema, 400: ApiErrorSchema } }, config: perOwner }, async (req) =>
    saveCalDav(own(currentUser(req).id), req.body));

  app.delete('/api/user/booking/calendar/caldav', { schema: { response: { 200: ApiBookingCalendarSchema } } }, async (req) => disconnect(own(currentUser(req).id)));

  // A member's own calendar (issue 58): `{url}` sets or clears their iCal address as the owner's
  // ical route does, `{address, username, password}` connects CalDAV as the owner's caldav route does.
  app.put('/api/user/team/:id/calendar', { schema: { params: IdParams, body: MemberCalendarBody, response: { 200: ApiBookingCalendarSchema, 400: ApiErrorSchema, 404: ApiErrorSchema } }, config: perOwner }, async (req) => {
    const place = await memberPlace(currentUser(req).id, req.params.id);
    return 'url' in req.body ? saveIcal(place, req.body.url) : saveCalDav(place, req.body);
  });

  // Disconnects the member's CalDAV calendar and forgets their iCal address.
  app.delete('/api/user/team/:id/calendar', { schema: { params: IdParams, response: { 200: ApiBookingCalendarSchema, 404: ApiErrorSchema } } }, async (req) => {
    const place = await memberPlace(currentUser(req).id, req.params.id);
    await setIcalAddress(db, booking.keys, place, null, now());
    return disconnect(place);
  });
}
