import type { Interval } from '../rules/slots.js';

// The owner's calendars as the desk sees them: busy times in a range, and a place to write each
// booking. Behind this: the pasted iCal address and CalDAV (ical-address.ts, caldav-mirror.ts).
// Every server's answer is bounded: a calendar slower than the bound, or down, makes the desk
// answer 'unavailable' rather than keep a caller waiting; the box's own work is not on that clock,
// so a loaded box never mistakes itself for a slow calendar (issue 53, item 4).

export interface CalendarRead {
  /** A copy read this recently may answer (offers); absent, the calendar is asked now (the claim). */
  maxAgeMs?: number;
  /** The bound on the calendar servers' answers; the box's own work (its database, the expansion) is not counted. */
  boundMs: number;
  signal?: AbortSignal;
  /** A team member's own calendar (issue 58); absent, the owner's (booking_calendars). */
  staffId?: number;
}

export interface CalendarReader {
  /** Throws CalendarUnavailable, with a reason for the owner, when a calendar cannot be read within the bound. */
  busy(ownerId: number, from: number, to: number, read: CalendarRead): Promise<Interval[]>;
}

/** How old the CalDAV busy times an offer may use are; the claim always reads afresh. */
export const OFFER_CACHE_MS = 60_000;

export interface BookingEventForCalendar {
  ownerId: number;
  bookingId: number;
  uid: string;
  summary: string;
  start: number;
  end: number;
  description: string;
  /** Written into this team member's own calendar; absent, the owner's. */
  staffId?: number;
}

export interface CalendarWriter {
  /** Writes the booking as one event; 'taken' when the calendar already holds this slot's event (412). */
  put(event: BookingEventForCalendar, signal: AbortSignal): Promise<'written' | 'taken' | 'no-calendar'>;
  remove(ownerId: number, uid: string, signal: AbortSignal, staffId?: number): Promise<void>;
}

export const NO_CALENDAR: CalendarReader & CalendarWriter = {
  busy: async () => [],
  put: async () => 'no-calendar',
  remove: async () => undefined,
};

/** The desk's bound on a calendar read (issue 41, item 7). */
export const CALENDAR_BOUND_MS = 1500;

export class CalendarUnavailable extends Error {
  /** `reason`: the why alone, in the owner's words (the Calendar tab shows it). */
  constructor(message: string, readonly reason: string = message) {
    super(message);
  }
}

const IN_TIME = 'it did not answer in time';

/** Runs `read` with the bound and the caller's signal; a timeout or failure becomes CalendarUnavailable with a reason for the owner. */
export async function bounded<T>(read: (signal: AbortSignal) => Promise<T>, boundMs: number, outer?: AbortSignal): Promise<T> {
  const timeout = AbortSignal.timeout(boundMs);
  const signal = outer ? AbortSignal.any([timeout, outer]) : timeout;
  let timer: NodeJS.Timeout | undefined;
  // The race guards against a client that ignores its signal: the desk answers within the bound regardless.
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new CalendarUnavailable(`the calendar did not answer within ${boundMs} ms`, IN_TIME)), boundMs);
  });
  try {
    return await Promise.race([read(signal), late]);
  } catch (err) {
    if (err instanceof CalendarUnavailable) throw err;
    if (timeout.aborted) throw new CalendarUnavailable(`the calendar did not answer within ${boundMs} ms`, IN_TIME);
    const why = err instanceof Error ? err.message : String(err);
    throw new CalendarUnavailable(`the calendar could not be read: ${why}`, why);
  } finally {
    clearTimeout(timer);
  }
}
