import { WEEKDAYS, type OpeningSpan, type Weekday } from '../../contract/call-handling.js';
import {
  ApiBookingListSchema, ApiBookingRulesSchema, ApiBookingSchema, ApiBookingServiceListSchema, ApiBookingServiceSchema, BookingRefusalSchema,
  BOOKING_LIMITS, BookingListQuery, type BookingServiceShape, BookingMoveBody, BookingRulesBody, BookingServiceBody, FeedTokenParams, NOT_THEIR_SERVICE,
} from '../../contract/schemas/booking.js';
import { ApiErrorSchema, IdParams } from '../../contract/schemas/shared.js';
import { validateDay } from '../call-handling/validate.js';
import type { BookingServiceRow } from '../db/schema.js';
import { PUBLIC } from '../http/access-guard.js';
import { badRequest, HttpError, notFound } from '../http/errors.js';
import type { App } from '../http/fastify-types.js';
import { currentUser } from '../http/session-hook.js';
import { bookingsOfCall, whereNow } from './store/bookings.js';
import { loadRules, saveRules, storedRules } from './store/rules.js';
import { activeService, activeServices, archiveService, createService, serviceById, updateService } from './store/services.js';
import { toApiBooking } from './api-booking.js';
import { personFilter } from '../team/staff-scope.js';
import { bookingPeople, checkPersonFilter } from '../team/staff-scope-store.js';
import { bookingRefusalSentence } from './rules/refusal.js';
import { callBookingRoutes } from './call-booking-routes.js';
import { calendarRoutes } from './calendar-routes.js';
import { zonedStart } from './zoned-start.js';
import { checkDepositSettings, CONNECT_STRIPE_FIRST } from './rules/deposit-settings.js';

// The owner's booking API (issue 41, item 6; docs/booking.md): services, rules, bookings, and
// the calendars. Every bad input is a 400 saying what to do; passwords are never returned.

const toApiService = (s: BookingServiceRow) => ({
  id: s.id, name: s.name, durationMinutes: s.durationMinutes, bufferMinutes: s.bufferMinutes, agentSentence: s.agentSentence,
  pricePence: s.pricePence, depositKind: s.depositKind, depositPence: s.depositPence, depositHoldMinutes: s.depositHoldMinutes,
});

/** The numbers are the schema's (contract/schemas/booking.ts); the texts are checked trimmed. */
function checkService(b: BookingServiceShape) {
  const name = b.name.trim();
  const L = BOOKING_LIMITS;
  if (!name || name.length > L.nameLength) throw badRequest(`Give the service a name of 1 to ${L.nameLength} characters, e.g. "Boiler service".`, { name: `1 to ${L.nameLength} characters` });
  const buffer = b.bufferMinutes ?? 0;
  const sentence = b.agentSentence?.trim() || null;
  if (sentence && sentence.length > L.sentenceLength) throw badRequest(`The sentence the agent reads out must be at most ${L.sentenceLength} characters.`, { agentSentence: `At most ${L.sentenceLength} characters` });
  const deposit = checkDepositSettings(b);
  if (!deposit.ok) throw badRequest(deposit.message, { [deposit.field]: deposit.message });
  return { name, durationMinutes: b.durationMinutes, bufferMinutes: buffer, agentSentence: sentence, ...deposit.settings };
}

export async function bookingRoutes(app: App): Promise<void> {
  const { database, booking, now } = app.services;
  const db = database.db;

  /** A service's fields checked, and a deposit only with a connected Stripe account (issue 59): the money goes there. */
  const serviceFields = async (userId: number, body: BookingServiceShape) => {
    const fields = checkService(body);
    if (fields.depositKind !== 'none' && !(await booking.deposits?.connected(userId))) throw badRequest(CONNECT_STRIPE_FIRST, { depositKind: 'Connect Stripe first' });
    return fields;
  };

  const myService = async (userId: number, id: number) => {
    const s = await activeService(db, userId, id);
    if (!s) throw notFound('No such service.');
    return s;
  };

  app.get('/api/user/booking/services', { schema: { response: { 200: ApiBookingServiceListSchema } } }, async (req) => ({
    services: (await activeServices(db, currentUser(req).id)).map(toApiService),
  }));

  app.post('/api/user/booking/services', { schema: { body: BookingServiceBody, response: { 201: ApiBookingServiceSchema, 400: ApiErrorSchema } } }, async (req, reply) => {
    return reply.code(201).send(toApiService(await createService(db, currentUser(req).id, await serviceFields(currentUser(req).id, req.body))));
  });

  app.put('/api/user/booking/services/:id', { schema: { params: IdParams, body: BookingServiceBody, response: { 200: ApiBookingServiceSchema, 400: ApiErrorSchema, 404: ApiErrorSchema } } }, async (req) => {
    const s = await myService(currentUser(req).id, req.params.id);
    return toApiService(await updateService(db, s.id, await serviceFields(currentUser(req).id, req.body)));
  });

  // Archived, not deleted: its bookings keep their service's name.
  app.delete('/api/user/booking/services/:id', { schema: { params: IdParams, response: { 200: ApiBookingServiceSchema, 404: ApiErrorSchema } } }, async (req) => {
    const s = await myService(currentUser(req).id, req.params.id);
    return toApiService(await archiveService(db, s.id, now()));
  });

  const rulesView = async (userId: number) => {
    const rules = await loadRules(db, userId);
    return { rules: await storedRules(db, userId), effectiveHours: rules.hours };
  };

  app.get('/api/user/booking/rules', { schema: { response: { 200: ApiBookingRulesSchema } } }, async (req) => rulesView(currentUser(req).id));

  app.put('/api/user/booking/rules', { schema: { body: BookingRulesBody, response: { 200: ApiBookingRulesSchema, 400: ApiErrorSchema } } }, async (req) => {
    const b = req.body;
    let hours: Record<Weekday, OpeningSpan[]> | null = null;
    if (b.hours) {
      hours = {} as Record<Weekday, OpeningSpan[]>;
      for (const day of WEEKDAYS) {
        const checked = validateDay(day, b.hours[day]);
        if (!Array.isArray(checked)) throw badRequest(`Booking hours: ${checked.message}`, { [checked.field]: checked.message });
        hours[day] = checked;
      }
    }
    await saveRules(db, currentUser(req).id, { hours, noticeMinutes: b.noticeMinutes, horizonDays: b.horizonDays, dailyCap: b.dailyCap }, now());
    return rulesView(currentUser(req).id);
  });

  // ?callId=: the bookings that call made (Call Details), whatever their day or status; one since
  // moved shows at its new time, with movedFrom the time the call booked.
  app.get('/api/user/bookings', { schema: { querystring: BookingListQuery, response: { 200: ApiBookingListSchema, 400: ApiErrorSchema } } }, async (req) => {
    const userId = currentUser(req).id;
    const { callId } = req.query;
    // One person's bookings: asked for with ?staffId=, or all a staff member with view 'own' sees.
    const person = personFilter(req.staff, req.query.staffId);
    if (person.kind === 'none') return { bookings: [] };
    await checkPersonFilter(db, userId, person);
    const theirs = (b: { staffId: number | null }) => person.kind === 'all' || b.staffId === person.staffId;
    if (callId === undefined) {
      // A move cancels the old row and makes a new one: the owner sees the booking once, at its new time.
      const rows = (await booking.upcoming(userId)).filter((r) => r.row.cancelledBy !== 'moved' && theirs(r.row));
      const people = await bookingPeople(db, userId, rows.map((r) => r.row));
      return { bookings: rows.map((r) => toApiBooking(r.row, r.serviceName, people(r.row))) };
    }
    const rows = await bookingsOfCall(db, userId, callId);
    // A booking since moved shows where it is now, saying where it was booked first.
    const now = await Promise.all(rows.map(async (r) => {
      const latest = await whereNow(db, userId, r.row);
      return latest === r.row ? { row: r.row, serviceName: r.serviceName, movedFrom: null } : { row: { ...latest, callId: r.row.callId }, serviceName: r.serviceName, movedFrom: r.row.startAt.toISOString() };
    }));
    const shown = now.filter((b) => theirs(b.row));
    const people = await bookingPeople(db, userId, shown.map((b) => b.row));
    return { bookings: shown.map((b) => ({ ...toApiBooking(b.row, b.serviceName, people(b.row)), movedFrom: b.movedFrom })) };
  });

  app.post('/api/user/bookings/:id/cancel', { schema: { params: IdParams, response: { 200: ApiBookingSchema, 404: ApiErrorSchema } } }, async (req) => {
    const userId = currentUser(req).id;
    const row = await booking.cancelByOwner(userId, req.params.id);
    if (!row) throw notFound('No such booking, or it is already cancelled.');
    return toApiBooking(row, (await serviceById(db, userId, row.serviceId))!.name);
  });

  app.post('/api/user/bookings/:id/move', { schema: { params: IdParams, body: BookingMoveBody, response: { 200: ApiBookingSchema, 400: ApiErrorSchema, 404: ApiErrorSchema, 409: BookingRefusalSchema, 503: ApiErrorSchema } } }, async (req, reply) => {
    const userId = currentUser(req).id;
    const result = await booking.moveByOwner(userId, req.params.id, zonedStart(req.body.start), req.body.staffId);
    if (result.kind === 'not-found') throw notFound('No such booking, or it is already cancelled.');
    if (result.kind === 'no-person') throw badRequest(NOT_THEIR_SERVICE, { staffId: 'Does not do this service' });
    // The rule that refused, in everyday words with the owner's own figures, and by name for the console.
    if (result.kind === 'taken') return reply.code(409).send({ message: bookingRefusalSentence(result.rule, await storedRules(db, userId)), rule: result.rule });
    if (result.kind === 'unavailable') throw new HttpError(503, `Your calendar could not be checked (${result.reason}); try again in a minute.`);
    return toApiBooking(result.row, result.serviceName);
  });

  // Call Details' "Book this caller" (issue 41, item 8) and the free times it offers.
  await callBookingRoutes(app);

  // The owner's calendar, and each team member's own (issue 58).
  await calendarRoutes(app);

  // The .ics link in a caller's confirmation: public, but only for the signed booking reference.
  app.get('/api/booking/event/:token', { config: { ...PUBLIC, rawReply: true }, schema: { params: FeedTokenParams } }, async (req, reply) => {
    const ics = await booking.bookingIcs(req.params.token.replace(/\.ics$/, ''));
    if (ics === null) throw notFound('No such booking.');
    return reply.type('text/calendar; charset=utf-8').header('content-disposition', 'attachment; filename="booking.ics"').send(ics);
  });

  // The private feed a calendar app subscribes to: public, but only with the owner's secret token.
  app.get('/api/booking/feed/:token', { config: { ...PUBLIC, rawReply: true }, schema: { params: FeedTokenParams } }, async (req, reply) => {
    const ics = await booking.feed(req.params.token.replace(/\.ics$/, ''));
    if (ics === null) throw notFound('No such feed: it may have been replaced. Copy the new address from Bookings → Calendar.');
    return reply.type('text/calendar; charset=utf-8').send(ics);
  });
}
