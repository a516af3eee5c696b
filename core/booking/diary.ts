import type { Log } from '../../contract/log.js';
import type { BookingRequestNote } from '../../dialogue/agent/booking-desk.js';
import type { Db } from '../db/client.js';
import type { BookingRow, BookingServiceRow } from '../db/schema.js';
import { DAY_MS } from '../time/london-time.js';
import { bounded, CALENDAR_BOUND_MS, CalendarUnavailable, NO_CALENDAR, OFFER_CACHE_MS, type BookingEventForCalendar, type CalendarReader, type CalendarWriter } from './calendars/calendar-gate.js';
import type { BookingKeys } from './calendars/keys.js';
import type { BookingRules } from './rules/booking-rules.js';
import { slotKey } from './rules/slot-id.js';
import { findSlots, slotVerdict, type Interval } from './rules/slots.js';
import { parseWish } from './rules/wish.js';
import { asBlocked, cancelBooking, liveBookingsBetween } from './store/bookings.js';
import { claimSlot, withdrawClaim, type ClaimResult } from './store/claim.js';
import { loadRules } from './store/rules.js';

// One owner's diary, shared by the agent's desk (agent-booking-adapter.ts) and the owner's
// Call Details (owner-booking.ts): free times from the slot engine over the owner's calendar and
// live bookings, and the claim with its calendar write and follow-ups, so the two can never
// book one slot twice and the caller's texts go the same way whoever booked.

/** What happens around the diary: texts, the owner told, the calendar written. Called after commit, never inside it. */
export interface BookingEvents {
  booked(row: BookingRow, service: BookingServiceRow): Promise<void>;
  cancelled(row: BookingRow, by: 'owner' | 'caller'): Promise<void>;
  moved(from: BookingRow, to: BookingRow, by: 'owner' | 'caller'): Promise<void>;
  request(ownerId: number, note: BookingRequestNote): Promise<void>;
  /** The booking could not be written to the owner's CalDAV calendar in the call: written later, on the durable jobs. */
  unwritten(row: BookingRow): Promise<void>;
}

export interface DiaryDeps {
  db: Db;
  now: () => Date;
  keys: BookingKeys;
  log: Pick<Log, 'info' | 'warn'>;
  calendar?: CalendarReader & CalendarWriter;
  events?: Partial<BookingEvents>;
  boundMs?: number;
}

/** The calendar event's uid for a booking's slot: one event per slot, so a second PUT of it is refused (412). */
export const eventUid = (ownerId: number, ref: { serviceId: number; start: number }) => `booking-${ownerId}-${ref.serviceId}-${ref.start}`;

/** A booking as its event in the owner's calendar. */
export function bookingEvent(row: BookingRow, serviceName: string): BookingEventForCalendar {
  return {
    ownerId: row.userId, bookingId: row.id, uid: eventUid(row.userId, { serviceId: row.serviceId, start: row.startAt.getTime() }),
    summary: `${serviceName}: ${row.callerName}`, start: row.startAt.getTime(), end: row.endAt.getTime(),
    description: `Booked by phone. Caller: ${row.callerName}, ${row.callerNumber}.`,
  };
}

export type FreeTimes = { kind: 'free'; slots: Interval[] } | { kind: 'none' } | { kind: 'unavailable'; reason: string };

export interface ClaimAsk {
  service: BookingServiceRow;
  rules: BookingRules;
  start: number;
  callId: number | null;
  callerName: string;
  callerNumber: string;
  now: number;
  /** A move: the booking whose place the new one takes. */
  replaces?: BookingRow;
  /** The owner from Call Details: one live booking per call. */
  onePerCall?: boolean;
}

export type DiaryClaim = ClaimResult | { kind: 'unavailable'; reason: string };

export class Diary {
  readonly calendar: CalendarReader & CalendarWriter;
  private readonly boundMs: number;

  constructor(readonly deps: DiaryDeps, readonly ownerId: number) {
    this.calendar = deps.calendar ?? NO_CALENDAR;
    this.boundMs = deps.boundMs ?? CALENDAR_BOUND_MS;
  }

  /** The owner's calendar over [from, to), the servers' answers within the bound; CalendarUnavailable when it cannot be read in time. */
  private async busy(from: number, to: number, signal?: AbortSignal, maxAgeMs?: number): Promise<Interval[]> {
    try {
      return await this.calendar.busy(this.ownerId, from, to, { maxAgeMs, boundMs: this.boundMs, signal });
    } catch (err) {
      // A calendar whose text cannot be read (bad iCalendar) is unavailable too, with the reason for the owner.
      if (err instanceof CalendarUnavailable) throw err;
      throw new CalendarUnavailable(`the calendar could not be read: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  /** The calendar around a start, re-read just before a claim: an event added since the offer blocks it. */
  async busyAround(start: number, signal?: AbortSignal): Promise<{ kind: 'read'; busy: Interval[] } | { kind: 'unavailable'; reason: string }> {
    try {
      return { kind: 'read', busy: await this.busy(start - DAY_MS, start + DAY_MS, signal) };
    } catch (err) {
      if (err instanceof CalendarUnavailable) return { kind: 'unavailable', reason: err.message };
      throw err;
    }
  }

  /** The soonest free starts of a service matching a wish, after `after`, at most `limit` (the slot engine's 3 by default). */
  async freeTimes(service: BookingServiceRow, wish: string, after: number | undefined, signal?: AbortSignal, limit?: number): Promise<FreeTimes> {
    const { db } = this.deps;
    const now = this.deps.now().getTime();
    const rules = await loadRules(db, this.ownerId);
    // Whole minutes, so the offers of one call share one read of the calendar (OFFER_CACHE_MS).
    const from = Math.floor(now / 60_000) * 60_000;
    const to = from + (rules.horizonDays + 1) * DAY_MS;
    let busy;
    try {
      busy = await this.busy(from, to, signal, OFFER_CACHE_MS);
    } catch (err) {
      if (err instanceof CalendarUnavailable) return { kind: 'unavailable', reason: err.message };
      throw err;
    }
    const booked = asBlocked(await liveBookingsBetween(db, this.ownerId, now - DAY_MS, to));
    const slots = findSlots({ now, rules, service, busy, booked, wish: parseWish(wish, now), after, limit });
    return slots.length ? { kind: 'free', slots } : { kind: 'none' };
  }

  /**
   * The claim, the calendar re-read around the start, and for a fresh booking its calendar event
   * and follow-ups. The local claim decides at once between callers racing for one slot: only the
   * winner waits on the calendar, and gives the booking up if the calendar now has something then
   * (or already holds an event for the slot: another box, or the owner), or cannot be read.
   * A move reads the calendar first, since the booking it replaces is cancelled in its claim.
   */
  async claim(ask: ClaimAsk, signal?: AbortSignal): Promise<DiaryClaim> {
    const { db } = this.deps;
    const { service, start } = ask;
    let busy: Interval[] = [];
    if (ask.replaces) {
      const around = await this.busyAround(start, signal);
      if (around.kind === 'unavailable') return around;
      busy = around.busy;
    }
    const result = await claimSlot(db, {
      ownerId: this.ownerId, serviceId: service.id, durationMinutes: service.durationMinutes, bufferMinutes: service.bufferMinutes,
      start, slotKey: slotKey({ serviceId: service.id, start }), callId: ask.callId, callerName: ask.callerName, callerNumber: ask.callerNumber,
      rules: ask.rules, busy, now: ask.now, replaces: ask.replaces?.id, onePerCall: ask.onePerCall,
    });
    if (result.kind !== 'booked' || !result.fresh) return result;
    if (!ask.replaces) {
      const around = await this.busyAround(start, signal);
      const refused = around.kind === 'unavailable' ? around : slotVerdict({ now: ask.now, rules: ask.rules, service, busy: around.busy, booked: [] }, start) === 'free' ? null : { kind: 'taken' as const, rule: 'calendar-busy' as const };
      if (refused) {
        await withdrawClaim(db, this.ownerId, result.row.id);
        return refused;
      }
    }
    if ((await this.writeToCalendar(result.row, service, signal)) === 'taken') {
      await cancelBooking(db, this.ownerId, result.row.id, 'moved', new Date(ask.now));
      return { kind: 'taken', rule: 'calendar-busy' };
    }
    const { replaces } = ask;
    if (replaces) await this.after(() => this.deps.events?.moved?.(replaces, result.row, 'caller'), result.row.id);
    else await this.after(() => this.deps.events?.booked?.(result.row, service), result.row.id);
    return result;
  }

  /** CalDAV: the booking as one event named after its slot, written once (If-None-Match: *). */
  private async writeToCalendar(row: BookingRow, service: BookingServiceRow, signal?: AbortSignal): Promise<'written' | 'taken' | 'no-calendar' | 'failed'> {
    try {
      return await bounded((s) => this.calendar.put(bookingEvent(row, service.name), s), this.boundMs * 2, signal);
    } catch (err) {
      // The box's own booking stands: it is the source of truth, and the feed carries it. The
      // event is written later on the durable jobs; its slot's name makes a late write land once.
      this.deps.log.warn({ bookingId: row.id, err: err instanceof Error ? err.message : String(err) }, 'booking not written to the owner\'s CalDAV calendar yet; it will be retried');
      await this.after(() => this.deps.events?.unwritten?.(row), row.id);
      return 'failed';
    }
  }

  /** A follow-up (texts, the owner told) never undoes the booking it follows. */
  async after(fn: () => Promise<void> | undefined, bookingId: number): Promise<void> {
    try {
      await fn();
    } catch (err) {
      this.deps.log.warn({ bookingId, err: err instanceof Error ? err.message : String(err) }, 'booking follow-up failed');
    }
  }
}
