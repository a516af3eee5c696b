// Booking (issue 41) as the owner's API takes and sends it (core/booking/routes.ts; docs/booking.md).
import { Type, type Static } from 'typebox';
import { Nullable } from './shared.js';
import { OpeningSpanSchema } from './call-handling.js';

const Week = Type.Object({
  mon: Type.Array(OpeningSpanSchema), tue: Type.Array(OpeningSpanSchema), wed: Type.Array(OpeningSpanSchema), thu: Type.Array(OpeningSpanSchema),
  fri: Type.Array(OpeningSpanSchema), sat: Type.Array(OpeningSpanSchema), sun: Type.Array(OpeningSpanSchema),
});

export const ApiBookingServiceSchema = Type.Object({
  id: Type.Integer(), name: Type.String(), durationMinutes: Type.Integer(), bufferMinutes: Type.Integer(), agentSentence: Nullable(Type.String()),
});
export const ApiBookingServiceListSchema = Type.Object({ services: Type.Array(ApiBookingServiceSchema) });
/** Checked in the route, so each mistake gets its own sentence. */
export const BookingServiceBody = Type.Object(
  { name: Type.String(), durationMinutes: Type.Number(), bufferMinutes: Type.Optional(Type.Number()), agentSentence: Type.Optional(Nullable(Type.String())) },
  { additionalProperties: false },
);

export const BookingRulesBody = Type.Object(
  {
    /** null: the call-handling opening hours. */
    hours: Nullable(Week),
    noticeMinutes: Type.Number(),
    horizonDays: Type.Number(),
    /** null: no cap. */
    dailyCap: Nullable(Type.Number()),
  },
  { additionalProperties: false },
);
export const ApiBookingRulesSchema = Type.Object({
  rules: BookingRulesBody,
  /** The hours slots are offered in (the owner's own, or the call-handling ones). */
  effectiveHours: Week,
});

export const ApiBookingSchema = Type.Object({
  id: Type.Integer(), serviceId: Type.Integer(), serviceName: Type.String(), start: Type.String(), end: Type.String(),
  callerName: Type.String(), callerNumber: Type.String(), callId: Nullable(Type.Integer()), status: Type.String(),
  /** Who cancelled it: 'owner', 'caller', or 'moved' (the owner moved it: a new booking took its place). */
  cancelledBy: Nullable(Type.String()),
  spoken: Type.String(),
  /** Call Details (?callId=): the booking was moved from this start (ISO) to the one above; null otherwise. */
  movedFrom: Nullable(Type.String()),
});
export const ApiBookingListSchema = Type.Object({ bookings: Type.Array(ApiBookingSchema) });
/** callId: the bookings that call made (checked in the route, for its own sentence). */
export const BookingListQuery = Type.Object({ callId: Type.Optional(Type.String({ maxLength: 20 })) });
export const BookingMoveBody = Type.Object({ start: Type.String() }, { additionalProperties: false });

/** GET /api/user/booking/times?serviceId=N&after=ISO: the next free times of a service (checked in the route, for its own sentences). */
export const FreeTimesQuery = Type.Object({ serviceId: Type.String({ maxLength: 20 }), after: Type.Optional(Type.String({ maxLength: 40 })) });
const ApiFreeTimeSchema = Type.Object({ start: Type.String(), end: Type.String(), spoken: Type.String() });
export const ApiFreeTimesSchema = Type.Object({ times: Type.Array(ApiFreeTimeSchema) });
/** POST /api/call-logs/{id}/booking: the owner books the caller of a call (issue 41, item 8). */
export const CallBookingBody = Type.Object(
  { serviceId: Type.Number(), start: Type.String(), callerName: Type.Optional(Type.String()) },
  { additionalProperties: false },
);

export const ApiBookingCalendarSchema = Type.Object({
  caldav: Nullable(Type.Object({ url: Type.String(), username: Type.String() })),
  icalAddressSet: Type.Boolean(),
  /** The private feed of the box's bookings; null until the owner makes one. */
  feedUrl: Nullable(Type.String()),
});
export const IcalAddressBody = Type.Object({ url: Nullable(Type.String()) }, { additionalProperties: false });
export const CalDavBody = Type.Object({ address: Type.String(), username: Type.String(), password: Type.String() }, { additionalProperties: false });
export const ApiCalDavTestSchema = Type.Object({ ok: Type.Boolean(), calendar: Type.Optional(Type.String()), problem: Type.Optional(Type.String()), message: Type.String() });
export const FeedTokenParams = Type.Object({ token: Type.String({ maxLength: 64 }) });

export type ApiBookingService = Static<typeof ApiBookingServiceSchema>;
export type BookingServiceShape = Static<typeof BookingServiceBody>;
export type BookingRulesShape = Static<typeof BookingRulesBody>;
export type ApiBookingRules = Static<typeof ApiBookingRulesSchema>;
export type ApiBooking = Static<typeof ApiBookingSchema>;
export type ApiBookingList = Static<typeof ApiBookingListSchema>;
export type ApiFreeTimes = Static<typeof ApiFreeTimesSchema>;
export type CallBookingShape = Static<typeof CallBookingBody>;
export type ApiBookingCalendar = Static<typeof ApiBookingCalendarSchema>;
export type CalDavShape = Static<typeof CalDavBody>;
export type ApiCalDavTest = Static<typeof ApiCalDavTestSchema>;
