import { toE164 } from '../../contract/phone.js';
import { ApiBookingSchema, ApiFreeTimesSchema, BOOKING_LIMITS, CallBookingBody, FreeTimesQuery, NO_SERVICE, NOT_THEIR_SERVICE } from '../../contract/schemas/booking.js';
import { ApiErrorSchema, IdParams } from '../../contract/schemas/shared.js';
import { ownedCallLog } from '../calls/queries.js';
import { badRequest, conflict, HttpError, notFound } from '../http/errors.js';
import type { App } from '../http/fastify-types.js';
import { currentUser } from '../http/session-hook.js';
import { toApiBooking } from './api-booking.js';
import { UNNAMED_CALLER } from './store/bookings.js';
import { shortWhen, spokenWhen } from '../../dialogue/language/dates.js';
import { zonedStart } from './zoned-start.js';
import { depositPounds } from './rules/deposit-settings.js';

// Issue 41, item 8: the owner books the caller of a call from Call Details (a voicemail whose
// caller wanted a booking, or any call with a number). The times come from the agent's slot
// engine and the booking from the agent's claim (core/booking/owner-booking.ts over diary.ts), so
// the owner and the agent can never book one slot twice, and the caller's confirmation goes on the same road.

/** How many free times the console shows at once; "Later times" asks again after the last. */
const FREE_TIMES_SHOWN = 9;
/** A booking needs a name: the owner types the one the caller gave, else this. */
const noService = () => badRequest(NO_SERVICE, { serviceId: 'One of your services' });
const noPerson = () => badRequest(NOT_THEIR_SERVICE, { staffId: 'Does not do this service' });
const unavailable = (reason: string) => new HttpError(503, `Your calendar could not be checked (${reason}); try again in a minute.`);

export async function callBookingRoutes(app: App): Promise<void> {
  const { database, booking } = app.services;

  app.get('/api/user/booking/times', { schema: { querystring: FreeTimesQuery, response: { 200: ApiFreeTimesSchema, 400: ApiErrorSchema, 503: ApiErrorSchema } } }, async (req) => {
    const { serviceId, after, staffId } = req.query;
    const from = after === undefined ? undefined : zonedStart(after, 'after');
    const offer = await booking.ownerBooking(currentUser(req).id).freeTimes(serviceId, from, FREE_TIMES_SHOWN, AbortSignal.timeout(10_000), staffId);
    switch (offer.kind) {
      case 'no-service': throw noService();
      case 'no-person': throw noPerson();
      case 'unavailable': throw unavailable(offer.reason);
      case 'none': return { times: [] };
      case 'free': return {
        times: offer.slots.map((s) => ({
          start: new Date(s.start).toISOString(), end: new Date(s.end).toISOString(), spoken: spokenWhen(new Date(s.start)),
          ...(offer.named && { staffId: s.person.staffId, staffName: s.person.name }),
        })),
      };
    }
  });

  app.post('/api/call-logs/:id/booking', {
    schema: { params: IdParams, body: CallBookingBody, response: { 201: ApiBookingSchema, 400: ApiErrorSchema, 404: ApiErrorSchema, 409: ApiErrorSchema, 503: ApiErrorSchema } },
  }, async (req, reply) => {
    const userId = currentUser(req).id;
    // Another owner's call answers like a missing one: ids do not leak.
    const call = await ownedCallLog(database.db, { userId }, req.params.id);
    if (!call) throw notFound('Call not found.');
    const callerNumber = toE164(call.fromNumber);
    if (!callerNumber) throw badRequest('This caller withheld their number, so there is no one to book or text. Book them under Bookings once they call again.');
    const callerName = req.body.callerName?.trim() || UNNAMED_CALLER;
    if (callerName.length > BOOKING_LIMITS.nameLength) throw badRequest(`The caller's name must be at most ${BOOKING_LIMITS.nameLength} characters.`, { callerName: `At most ${BOOKING_LIMITS.nameLength} characters` });
    const start = zonedStart(req.body.start, 'The time');
    const result = await booking.ownerBooking(userId).bookForCall({ callId: call.id, serviceId: req.body.serviceId, start, callerName, callerNumber, staffId: req.body.staffId, skipDeposit: req.body.skipDeposit ?? false }, AbortSignal.timeout(10_000));
    switch (result.kind) {
      case 'no-service': throw noService();
      case 'no-person': throw noPerson();
      case 'not-offered': throw badRequest('That time is not one your diary offers (outside your booking hours, too soon, too far ahead, or between the times offered). Pick one of the free times shown.', { start: 'One of the free times' });
      case 'call-booked': throw conflict(`This call already has a booking: ${result.serviceName}, ${shortWhen(result.start)}. Move or cancel it under Bookings.`);
      case 'taken': throw conflict('That time has just been taken, or your calendar now has something then. Pick another of the free times.');
      case 'unavailable': throw unavailable(result.reason);
      // Issue 59: the owner is at the console, so they are told and choose; no request is left.
      case 'deposit-request':
        if (result.why === 'untextable') throw badRequest(`This service needs a ${depositPounds(result.pence)} deposit, and this caller cannot be texted the link to pay it (not a UK mobile, or they replied STOP). Tick "no deposit needed" to book them anyway.`, { skipDeposit: 'Tick to book without a deposit' });
        throw new HttpError(503, `The deposit link could not be made (${result.reason}). Try again in a minute, or tick "no deposit needed" to book them without one.`);
      case 'booked': return reply.code(201).send(toApiBooking(result.row, result.serviceName));
    }
  });
}
