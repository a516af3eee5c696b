import { eq } from 'drizzle-orm';
import { toE164 } from '../../contract/phone.js';
import { ApiBookingSchema, ApiFreeTimesSchema, CallBookingBody, FreeTimesQuery } from '../../contract/schemas/booking.js';
import { ApiErrorSchema, IdParams } from '../../contract/schemas/shared.js';
import { ownedCallLog } from '../calls/queries.js';
import { tablesOf } from '../db/schema.js';
import { badRequest, conflict, HttpError, notFound } from '../http/errors.js';
import type { App } from '../http/fastify-types.js';
import { currentUser } from '../http/session-hook.js';
import { BOOKING_LIMITS } from './rules.js';
import { toApiBooking } from './api-booking.js';
import { serviceById } from './store.js';
import { shortWhen } from '../../dialogue/language/dates.js';
import { zonedStart } from './zoned-start.js';

// Issue 41, item 8: the owner books the caller of a call from Call Details (a voicemail whose
// caller wanted a booking, or any call with a number). The times come from the agent's slot
// engine and the booking from the agent's claim (core/booking/booking-desk.ts), so the owner and
// the agent can never book one slot twice, and the caller's confirmation goes on the same road.

/** How many free times the console shows at once; "Later times" asks again after the last. */
const FREE_TIMES_SHOWN = 9;
/** A booking needs a name: the owner types the one the caller gave, else this. */
const UNNAMED_CALLER = 'Caller';
const NO_SERVICE = 'Pick one of your services: that one does not exist or was removed.';
const unavailable = (reason: string) => new HttpError(503, `Your calendar could not be checked (${reason}); try again in a minute.`);

export async function callBookingRoutes(app: App): Promise<void> {
  const { database, booking } = app.services;

  app.get('/api/user/booking/times', { schema: { querystring: FreeTimesQuery, response: { 200: ApiFreeTimesSchema, 400: ApiErrorSchema, 503: ApiErrorSchema } } }, async (req) => {
    const { serviceId, after } = req.query;
    if (!/^\d{1,9}$/.test(serviceId)) throw badRequest(NO_SERVICE, { serviceId: 'One of your services' });
    const from = after === undefined ? undefined : zonedStart(after, 'after');
    const desk = booking.ownerDesk(currentUser(req).id);
    const offer = await desk.freeTimes(Number(serviceId), from, FREE_TIMES_SHOWN, AbortSignal.timeout(10_000));
    if (offer.kind === 'unavailable') throw unavailable(offer.reason);
    if (offer.kind === 'none') {
      // None free, or no such service: the owner is told which.
      const service = await serviceById(database.db, currentUser(req).id, Number(serviceId));
      if (!service || service.archivedAt) throw badRequest(NO_SERVICE, { serviceId: 'One of your services' });
      return { times: [] };
    }
    return { times: offer.slots.map((s) => ({ start: s.start.toISOString(), end: s.end.toISOString(), spoken: s.spoken })) };
  });

  app.post('/api/call-logs/:id/booking', {
    schema: { params: IdParams, body: CallBookingBody, response: { 201: ApiBookingSchema, 400: ApiErrorSchema, 404: ApiErrorSchema, 409: ApiErrorSchema, 503: ApiErrorSchema } },
  }, async (req, reply) => {
    const userId = currentUser(req).id;
    // Another owner's call answers like a missing one: ids do not leak.
    const call = await ownedCallLog(database.db, userId, req.params.id);
    if (!call) throw notFound('Call not found.');
    const callerNumber = toE164(call.fromNumber);
    if (!callerNumber) throw badRequest('This caller withheld their number, so there is no one to book or text. Book them under Bookings once they call again.');
    const callerName = req.body.callerName?.trim() || UNNAMED_CALLER;
    if (callerName.length > BOOKING_LIMITS.nameLength) throw badRequest(`The caller's name must be at most ${BOOKING_LIMITS.nameLength} characters.`, { callerName: `At most ${BOOKING_LIMITS.nameLength} characters` });
    if (!Number.isInteger(req.body.serviceId)) throw badRequest(NO_SERVICE, { serviceId: 'One of your services' });
    const start = zonedStart(req.body.start, 'The time');
    const result = await booking.ownerDesk(userId).bookForCall({ callId: call.id, serviceId: req.body.serviceId, start, callerName, callerNumber }, AbortSignal.timeout(10_000));
    switch (result.kind) {
      case 'no-service': throw badRequest(NO_SERVICE, { serviceId: 'One of your services' });
      case 'not-offered': throw badRequest('That time is not one your diary offers (outside your booking hours, too soon, too far ahead, or between the times offered). Pick one of the free times shown.', { start: 'One of the free times' });
      case 'call-booked': throw conflict(`This call already has a booking: ${result.booking.serviceName}, ${shortWhen(result.booking.start)}. Move or cancel it under Bookings.`);
      case 'taken': throw conflict('That time has just been taken, or your calendar now has something then. Pick another of the free times.');
      case 'unavailable': throw unavailable(result.reason);
      case 'booked': {
        const { bookings } = tablesOf(database.db);
        const row = (await database.db.select().from(bookings).where(eq(bookings.id, result.booking.id)).limit(1))[0]!;
        return reply.code(201).send(toApiBooking(row, result.booking.serviceName));
      }
    }
  });
}
