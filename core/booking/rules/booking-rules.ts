import type { HolidayNation, OpeningSpan, Weekday } from '../../../contract/call-handling.js';

/** An owner's booking rules as the slot engine uses them (stored ones merged over the defaults). */
export interface BookingRules {
  /** Booking hours per weekday, London wall clock; by default the call-handling opening hours. */
  hours: Record<Weekday, OpeningSpan[]>;
  /** Bank holidays of these nations are closed for bookings (the call-handling choice). */
  holidayNations: HolidayNation[];
  noticeMinutes: number;
  horizonDays: number;
  /** At most this many live bookings starting on one London day; null = no cap. */
  dailyCap: number | null;
}

export const BOOKING_DEFAULTS = { noticeMinutes: 120, horizonDays: 14, dailyCap: null } as const;
