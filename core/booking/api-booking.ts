import type { BookingRow } from '../db/schema.js';
import { spokenWhen } from '../../dialogue/language/dates.js';

/** A booking as the owner's API sends it (contract/schemas/booking.ts ApiBookingSchema). */
export const toApiBooking = (b: BookingRow, serviceName: string) => ({
  id: b.id, serviceId: b.serviceId, serviceName, start: b.startAt.toISOString(), end: b.endAt.toISOString(), callerName: b.callerName,
  callerNumber: b.callerNumber, callId: b.callId, status: b.status, cancelledBy: b.cancelledBy, spoken: spokenWhen(b.startAt), movedFrom: null as string | null,
});
