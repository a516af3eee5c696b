// Booking (issue 41): the owner's bookings, services, booking hours and calendars (docs/booking.md).
import type {
  ApiBooking, ApiBookingCalendar, ApiBookingList, ApiBookingRules, ApiBookingService, ApiCalDavTest, ApiFreeTimes, BookingRulesShape, BookingServiceShape, CalDavShape,
  CallBookingShape,
} from '../../../contract/schemas/booking';
import { apiGet, apiRequest } from './client';

const S = '/api/user/booking';

export const getBookings = ({ signal }: { signal?: AbortSignal } = {}) => apiGet<ApiBookingList>('/api/user/bookings', signal);
/** One person's bookings (issue 58's person filter). */
export const getPersonBookings = (staffId: number, signal?: AbortSignal) => apiGet<ApiBookingList>(`/api/user/bookings?staffId=${staffId}`, signal);
/** The bookings a call made (Call Details), whatever their day or status. */
export const getCallBookings = (callId: number, signal?: AbortSignal) => apiGet<ApiBookingList>(`/api/user/bookings?callId=${callId}`, signal);
export const cancelBooking = (id: number) => apiRequest<ApiBooking>('POST', `/api/user/bookings/${id}/cancel`);
/** The next free times of a service (the slot engine the agent offers from), after `after` when given. */
export const getFreeTimes = (serviceId: number, after: string | null, signal?: AbortSignal) =>
  apiGet<ApiFreeTimes>(`${S}/times?serviceId=${serviceId}${after ? `&after=${encodeURIComponent(after)}` : ''}`, signal);
/** Call Details' "Book this caller": the caller of that call booked, and texted their confirmation. */
export const bookCaller = (callId: number, body: CallBookingShape) => apiRequest<ApiBooking>('POST', `/api/call-logs/${callId}/booking`, body);
export const moveBooking = (id: number, start: string) => apiRequest<ApiBooking>('POST', `/api/user/bookings/${id}/move`, { start });

export const getServices = ({ signal }: { signal?: AbortSignal } = {}) => apiGet<{ services: ApiBookingService[] }>(`${S}/services`, signal);
export const addService = (body: BookingServiceShape) => apiRequest<ApiBookingService>('POST', `${S}/services`, body);
export const saveService = (id: number, body: BookingServiceShape) => apiRequest<ApiBookingService>('PUT', `${S}/services/${id}`, body);
export const archiveService = (id: number) => apiRequest<ApiBookingService>('DELETE', `${S}/services/${id}`);

export const getRules = ({ signal }: { signal?: AbortSignal } = {}) => apiGet<ApiBookingRules>(`${S}/rules`, signal);
export const saveRules = (body: BookingRulesShape) => apiRequest<ApiBookingRules>('PUT', `${S}/rules`, body);

export const getCalendar = ({ signal }: { signal?: AbortSignal } = {}) => apiGet<ApiBookingCalendar>(`${S}/calendar`, signal);
export const setIcalAddress = (url: string | null) => apiRequest<ApiBookingCalendar>('PUT', `${S}/calendar/ical`, { url });
export const regenerateFeed = () => apiRequest<ApiBookingCalendar>('POST', `${S}/calendar/feed`);
export const testCalDav = (body: CalDavShape) => apiRequest<ApiCalDavTest>('POST', `${S}/calendar/caldav/test`, body);
export const connectCalDav = (body: CalDavShape) => apiRequest<ApiBookingCalendar>('PUT', `${S}/calendar/caldav`, body);
export const disconnectCalDav = () => apiRequest<ApiBookingCalendar>('DELETE', `${S}/calendar/caldav`);
