import type { BookingRow } from '../db/schema.js';
import { spokenWhen } from '../../dialogue/language/dates.js';

/** The booking's person's name and what routing did on the call that made it (issue 58; core/team/staff-scope-store.ts bookingPeople). */
export interface BookingPerson {
  staffName: string | null;
  routingNote: string | null;
}
const NOBODY_NAMED: BookingPerson = { staffName: null, routingNote: null };

/** A booking as the owner's API sends it (contract/schemas/booking.ts ApiBookingSchema). */
export const toApiBooking = (b: BookingRow, serviceName: string, person: BookingPerson = NOBODY_NAMED) => ({
  id: b.id, serviceId: b.serviceId, serviceName, start: b.startAt.toISOString(), end: b.endAt.toISOString(), callerName: b.callerName,
  callerNumber: b.callerNumber, callId: b.callId, status: b.status, cancelledBy: b.cancelledBy, spoken: spokenWhen(b.startAt), movedFrom: null as string | null,
  staffId: b.staffId, ...person,
  depositState: b.depositState, depositPence: b.depositPence, depositDueAt: b.depositDueAt?.toISOString() ?? null,
});
