// Whose calendar the calendar cards save: the owner's (the Calendar tab) or a team member's (the
// Team page, issue 58). The cards are the same; only the requests behind them differ.
import type { ApiBookingCalendar, CalDavShape } from '../../../../contract/schemas/booking';
import { connectCalDav, disconnectCalDav, setIcalAddress } from '../../api/booking';

export interface CalendarRequests {
  saveIcal: (url: string | null) => Promise<ApiBookingCalendar>;
  connectCalDav: (body: CalDavShape) => Promise<ApiBookingCalendar>;
  disconnectCalDav: () => Promise<ApiBookingCalendar>;
}

export const OWNER_CALENDAR: CalendarRequests = { saveIcal: setIcalAddress, connectCalDav, disconnectCalDav };
