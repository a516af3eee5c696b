// The seam between the agent (dialogue/agent/booking-walk.ts, pbx/flows/agent) and the diary, which core/booking implements.
// The agent never computes a time: it hands the desk what the caller said they wanted and gets
// back at most three concrete free slots, each with an id the desk made; to book, it hands one of
// those ids back. Everything a model could get wrong (times, dates, the clock change, a slot that
// was free a second ago) is decided behind this interface, by code.

/** A service the owner lets callers book (issue 41, item 1). */
export interface BookableService {
  id: number;
  name: string;
  durationMinutes: number;
  /** The optional sentence the owner wrote for the agent to read out. */
  agentSentence: string | null;
}

/** A person who does a service (issue 58): a caller may ask for them by any of their names, or by their role word. */
export interface BookablePerson {
  id: number;
  name: string;
  otherNames: string[];
  /** "stylist", "engineer"; absent or null when the owner gave none. */
  roleWord?: string | null;
}

/** A free time the desk offers; only ids the desk issued can be booked. */
export interface OfferedSlot {
  /** Opaque and unguessable; valid for this owner and service only, until the slot is taken. */
  id: string;
  serviceId: number;
  serviceName: string;
  start: Date;
  end: Date;
  /** How the agent says it, in Europe/London: "Tuesday the 3rd of December at ten o'clock". */
  spoken: string;
  /** Who the time is with, named when more than the owner does the service ("Tom can do …"). */
  staffName?: string;
}

/** A booking as the agent reads it back or finds it for a caller who rings again. */
export interface BookingSummary {
  id: number;
  serviceName: string;
  start: Date;
  end: Date;
  callerName: string;
  callerNumber: string;
  spoken: string;
  status: 'booked' | 'cancelled';
  /** Who it is with, when the business has more than the owner doing it. */
  staffName?: string;
  /** Issue 59: the time is held until this deposit is paid by the link texted to the caller. */
  deposit?: { pence: number; holdMinutes: number };
}

/** The diary could not be asked in time (calendar down, slower than the 1.5 s bound, …). */
export interface DiaryUnavailable {
  kind: 'unavailable';
  /** For the owner's alert and the log; never spoken to the caller. */
  reason: string;
}

export type OfferResult =
  | { kind: 'offered'; slots: OfferedSlot[] }
  /** Nothing free that matches the wish within the horizon. */
  | { kind: 'none' }
  | DiaryUnavailable;

export type BookResult =
  | { kind: 'booked'; booking: BookingSummary }
  /** Someone else took it first (or the owner's calendar now blocks it): the next free times. */
  | { kind: 'taken'; next: OfferedSlot[] }
  /** The id is not one this desk issued for this owner (a model's invention): nothing written. */
  | { kind: 'unknown-slot' }
  /**
   * Issue 59: the service needs a deposit, and the caller cannot be texted its link
   * ('deposit-untextable') or the link could not be made ('deposit-unavailable'): nothing booked;
   * the agent leaves the owner a request naming the time, the service and the deposit.
   */
  | { kind: 'deposit-request'; why: 'deposit-untextable' | 'deposit-unavailable'; depositPence: number; reason: string }
  | DiaryUnavailable;

export interface OfferRequest {
  /** When omitted and the owner has one service, that one; with several, the agent asks first. */
  serviceId?: number;
  /** The caller's own words about when ("Tuesday morning", "after five", "next week"). */
  wish: string;
  /** Offer only after this (a caller who refused the earlier offers). */
  after?: Date;
  /** With this person (a caller who asked for them by name); absent, anyone who does the service. */
  staffId?: number;
  /** With any of these people, the soonest across them (a caller who asked for a role: "a stylist"); wins over `staffId`. */
  staffIds?: number[];
}

export interface BookRequest {
  slotId: string;
  /** The call this booking comes from: a retried model call or job with the same call and slot books once. */
  callId: number;
  callerName: string;
  /** E.164; the caller id by default, or the digits a withheld caller gave and heard read back. */
  callerNumber: string;
}

export interface BookingRequestNote {
  callId: number;
  callerName: string;
  callerNumber: string;
  /** What the caller wanted, for the owner to confirm a time with them. */
  wish: string;
  /** Why no booking was made: the caller refused every time, the diary was unavailable, or a deposit could not be asked for (issue 59). */
  why: 'no-suitable-time' | 'diary-unavailable' | 'deposit-untextable' | 'deposit-unavailable';
  /** A deposit request: the deposit the service needs, in pence. */
  depositPence?: number;
  /** A deposit request: why the pay link could not be made, for the owner. */
  reason?: string;
}

/** One owner's diary, as the agent sees it during one call. */
export interface BookingDesk {
  services(): Promise<BookableService[]>;
  /** Who does a service (the first when none is named); one person, the owner, in a business without a team. */
  people(serviceId?: number): Promise<BookablePerson[]>;
  /** The role words of the business's members, whether or not they do a service ("we have no stylist who does that"). */
  roleWords(): Promise<string[]>;
  offer(req: OfferRequest, signal?: AbortSignal): Promise<OfferResult>;
  book(req: BookRequest, signal?: AbortSignal): Promise<BookResult>;
  /** Live bookings made from this number, soonest first (a caller who rings again to cancel or move). */
  findByCaller(callerNumber: string): Promise<BookingSummary[]>;
  cancelByCaller(bookingId: number, callerNumber: string): Promise<BookingSummary | null>;
  /** Moves a live booking of this caller to an offered slot; same guarantees as book. */
  move(bookingId: number, req: BookRequest, signal?: AbortSignal): Promise<BookResult>;
  /** Leaves a booking request for the owner (and tells them at once). */
  leaveRequest(note: BookingRequestNote): Promise<void>;
}

/**
 * Builds the desk for one owner. `preview: true` (the console's Try-it) reads the real
 * availability but writes nothing: book/move answer as if booked, no row, no text, no event.
 */
export type BookingDeskFactory = (ownerId: number, opts?: { preview?: boolean }) => BookingDesk;
