// Booking (issue 41) as the owner's API takes and sends it (core/booking/routes.ts; docs/booking.md).
import { Type, type Static } from 'typebox';
import { Nullable, OneOf, refusal } from './shared.js';
import { OpeningSpanSchema } from './call-handling.js';
import { DEPOSIT_KINDS, DEPOSIT_STATES, type DepositKind } from '../enums.js';
import { PAYMENT_LIMITS, penceAsPounds } from '../rules.js';

/** Limits an owner's input is checked against (the API's 400s say them). */
export const BOOKING_LIMITS = {
  durationMinutes: { min: 10, max: 240 },
  bufferMinutes: { min: 0, max: 240 },
  noticeMinutes: { min: 0, max: 14 * 24 * 60 },
  horizonDays: { min: 1, max: 365 },
  dailyCap: { min: 1, max: 100 },
  nameLength: 80,
  sentenceLength: 300,
} as const;
const L = BOOKING_LIMITS;
/** A service id that is not one of the owner's bookable services. */
export const NO_SERVICE = 'Pick one of your services: that one does not exist or was removed.';
/** A staffId that is not a current member doing the service (issue 58): the free times, Call Details' booking and a move say this. */
export const NOT_THEIR_SERVICE = 'That person is not on your team or does not do this service: pick someone who does, or add the service to them under Team.';
const ServiceId = (options: { maximum?: number } = {}) => Type.Integer({ minimum: 0, ...options, ...refusal(NO_SERVICE, 'One of your services') });

const Week = Type.Object({
  mon: Type.Array(OpeningSpanSchema), tue: Type.Array(OpeningSpanSchema), wed: Type.Array(OpeningSpanSchema), thu: Type.Array(OpeningSpanSchema),
  fri: Type.Array(OpeningSpanSchema), sat: Type.Array(OpeningSpanSchema), sun: Type.Array(OpeningSpanSchema),
});

const P = PAYMENT_LIMITS;
export const ApiBookingServiceSchema = Type.Object({
  id: Type.Integer(), name: Type.String(), durationMinutes: Type.Integer(), bufferMinutes: Type.Integer(), agentSentence: Nullable(Type.String()),
  /** Issue 59 (docs/payments.md): the price in pence (null = not said), and the deposit a booking of it needs. */
  pricePence: Nullable(Type.Integer()), depositKind: OneOf(DEPOSIT_KINDS), depositPence: Nullable(Type.Integer()), depositHoldMinutes: Type.Integer(),
});
export const ApiBookingServiceListSchema = Type.Object({ services: Type.Array(ApiBookingServiceSchema) });
/** Each mistake gets its own sentence; the name and the sentence, trimmed first, are checked in the route. */
export const BookingServiceBody = Type.Object(
  {
    name: Type.String(),
    durationMinutes: Type.Integer({
      minimum: L.durationMinutes.min, maximum: L.durationMinutes.max,
      ...refusal(`A service lasts a whole number of minutes from ${L.durationMinutes.min} to ${L.durationMinutes.max}.`, `${L.durationMinutes.min}–${L.durationMinutes.max} minutes`),
    }),
    bufferMinutes: Type.Optional(Type.Integer({
      minimum: L.bufferMinutes.min, maximum: L.bufferMinutes.max,
      ...refusal(`The break after a booking is a whole number of minutes from 0 to ${L.bufferMinutes.max}.`, `0–${L.bufferMinutes.max} minutes`),
    })),
    agentSentence: Type.Optional(Nullable(Type.String())),
    /** Issue 59: absent = none/not said; how they fit together (a price for 'full', an amount for 'fixed') is checked in the route. */
    pricePence: Type.Optional(Nullable(Type.Integer({
      minimum: 0, maximum: 10_000_000, ...refusal('The price is an amount from £0 to £100,000.', 'Pence, e.g. 4500 for £45'),
    }))),
    depositKind: Type.Optional(Type.Unsafe<DepositKind>(Type.String({ enum: [...DEPOSIT_KINDS], ...refusal('The deposit is "none", "fixed" or "full".', 'none, fixed or full') }))),
    depositPence: Type.Optional(Nullable(Type.Integer({
      minimum: P.depositPence.min, maximum: P.depositPence.max,
      ...refusal(`A fixed deposit is an amount from ${penceAsPounds(P.depositPence.min)} to ${penceAsPounds(P.depositPence.max)}.`, `${P.depositPence.min}–${P.depositPence.max} pence`),
    }))),
    depositHoldMinutes: Type.Optional(Type.Integer({
      minimum: P.holdMinutes.min, maximum: P.holdMinutes.max,
      ...refusal(`The time a deposit holds the slot is a whole number of minutes from ${P.holdMinutes.min} to ${P.holdMinutes.max} (24 hours).`, `${P.holdMinutes.min}–${P.holdMinutes.max} minutes`),
    })),
  },
  { additionalProperties: false },
);

export const BookingRulesBody = Type.Object(
  {
    /** null: the call-handling opening hours. */
    hours: Nullable(Week),
    noticeMinutes: Type.Integer({
      minimum: L.noticeMinutes.min, maximum: L.noticeMinutes.max,
      ...refusal(`Minimum notice is a whole number of minutes from 0 to ${L.noticeMinutes.max} (two weeks).`, 'Minutes, 0 or more'),
    }),
    horizonDays: Type.Integer({
      minimum: L.horizonDays.min, maximum: L.horizonDays.max,
      ...refusal(`How far ahead callers can book is a whole number of days from ${L.horizonDays.min} to ${L.horizonDays.max}.`, `${L.horizonDays.min}–${L.horizonDays.max} days`),
    }),
    /** null: no cap. */
    dailyCap: Nullable(Type.Integer({
      minimum: L.dailyCap.min, maximum: L.dailyCap.max,
      ...refusal(`The most bookings a day is a whole number from ${L.dailyCap.min} to ${L.dailyCap.max}, or none for no limit.`, `${L.dailyCap.min}–${L.dailyCap.max}`),
    })),
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
  /** The person booked (issue 58); null for nobody in particular. */
  staffId: Nullable(Type.Integer()),
  /** That person's name (in the list; a single booking's answer may leave it null). */
  staffName: Nullable(Type.String()),
  /** What routing did on the call that made the booking (calls.routing_note); null when nothing or no call. */
  routingNote: Nullable(Type.String()),
  /** Its deposit (issue 59, docs/payments.md): null when none is needed; 'awaiting' holds the slot until depositDueAt (ISO). */
  depositState: Nullable(OneOf(DEPOSIT_STATES)),
  depositPence: Nullable(Type.Integer()),
  depositDueAt: Nullable(Type.String()),
});
export const ApiBookingListSchema = Type.Object({ bookings: Type.Array(ApiBookingSchema) });
/** callId: the bookings that call made. */
export const BookingListQuery = Type.Object({
  callId: Type.Optional(Type.Integer({ minimum: 0, maximum: 999_999_999_999_999, ...refusal("callId must be a call's number, e.g. ?callId=41.", 'A call number') })),
  /** One person's bookings (issue 58): a member of the business, or 400. */
  staffId: Type.Optional(Type.Integer({ minimum: 1, maximum: 999_999_999_999_999, ...refusal("staffId must be a team member's number, e.g. ?staffId=3.", 'A team member') })),
});
/** A team member (issue 58): their times only, or the booking with them. */
const StaffId = () => Type.Integer({ minimum: 1, maximum: 999_999_999, ...refusal('staffId must be one of your team, e.g. 3.', 'One of your team') });
/** staffId (issue 58): move it to this team member too; absent, it stays with its person. */
export const BookingMoveBody = Type.Object({ start: Type.String(), staffId: Type.Optional(StaffId()) }, { additionalProperties: false });
/** Which of the owner's rules refused a time (issue 57, item 3); the 409's message says it in everyday words. */
const REFUSAL_RULES = ['too-soon', 'too-far', 'bank-holiday', 'outside-hours', 'between-times', 'day-full', 'overlaps-booking', 'calendar-busy'] as const;
export type RefusalRule = (typeof REFUSAL_RULES)[number];
/** POST /api/user/bookings/{id}/move's 409: the refusal and the rule behind it. */
export const BookingRefusalSchema = Type.Object({ message: Type.String(), rule: OneOf(REFUSAL_RULES) });

/** GET /api/user/booking/times?serviceId=N&after=ISO: the next free times of a service (`after` checked in the route, for its own sentence). */
export const FreeTimesQuery = Type.Object({ serviceId: ServiceId({ maximum: 999_999_999 }), after: Type.Optional(Type.String({ maxLength: 40 })), staffId: Type.Optional(StaffId()) });
/** `staffId`/`staffName`: who the time is with, given when more than the owner does the service (issue 58). */
const ApiFreeTimeSchema = Type.Object({ start: Type.String(), end: Type.String(), spoken: Type.String(), staffId: Type.Optional(Type.Integer()), staffName: Type.Optional(Type.String()) });
export const ApiFreeTimesSchema = Type.Object({ times: Type.Array(ApiFreeTimeSchema) });
/** POST /api/call-logs/{id}/booking: the owner books the caller of a call (issue 41, item 8). */
export const CallBookingBody = Type.Object(
  {
    serviceId: ServiceId(), start: Type.String(), callerName: Type.Optional(Type.String()), staffId: Type.Optional(StaffId()),
    /** Issue 59: the owner ticked "no deposit needed": a deposit service is booked without a hold. */
    skipDeposit: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

export const ApiBookingCalendarSchema = Type.Object({
  caldav: Nullable(Type.Object({ url: Type.String(), username: Type.String() })),
  icalAddressSet: Type.Boolean(),
  /** The private feed of the box's bookings; null until the owner makes one. */
  feedUrl: Nullable(Type.String()),
  /** Set while the connected calendar is not answering: since when (ISO) and why; bookings are taken as requests meanwhile. */
  trouble: Nullable(Type.Object({ since: Type.String(), reason: Type.String() })),
  /** Only in the answer to saving an iCal address: what the box found when it read it. */
  icalFound: Type.Optional(Type.String()),
});
export const IcalAddressBody = Type.Object({ url: Nullable(Type.String()) }, { additionalProperties: false });
export const CalDavBody = Type.Object({ address: Type.String(), username: Type.String(), password: Type.String() }, { additionalProperties: false });
/** PUT /api/user/team/{id}/calendar (issue 58): a member's own calendar, either body the owner's two calendar routes take. */
export const MemberCalendarBody = Type.Union([IcalAddressBody, CalDavBody]);
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
