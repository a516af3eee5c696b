import { and, asc, eq, gt } from 'drizzle-orm';
import { toE164 } from '../../contract/phone.js';
import type { Log } from '../../contract/log.js';
import type { Db } from '../db/client.js';
import { tablesOf, type BookingRow, type BookingServiceRow } from '../db/schema.js';
import { DAY_MS } from '../time/london-time.js';
import { bounded, CALENDAR_BOUND_MS, CalendarUnavailable, NO_CALENDAR, OFFER_CACHE_MS, type BookingEventForCalendar, type CalendarReader, type CalendarWriter } from './calendar-gate.js';
import { claimSlot } from './claim.js';
import type { BookableService, BookingDesk, BookingDeskFactory, BookingRequestNote, BookingSummary, BookResult, BookRequest, OfferedSlot, OfferRequest, OfferResult } from '../../dialogue/agent/booking-desk.js';
import type { BookingKeys } from './keys.js';
import { readSlotId, slotId, slotKey } from './slot-id.js';
import { findSlots, isFreeSlot } from './slots.js';
import { spokenWhen } from '../../dialogue/language/dates.js';
import { activeServices, asBlocked, liveBookingsBetween, loadRules, serviceById } from './store.js';
import { parseWish } from './wish.js';

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

function toSummary(row: BookingRow, serviceName: string): BookingSummary {
  return {
    id: row.id, serviceName, start: row.startAt, end: row.endAt, callerName: row.callerName, callerNumber: row.callerNumber,
    spoken: spokenWhen(row.startAt), status: row.status,
  };
}

/** The desk factory the agent uses: `services.booking.desk(ownerId)`. */
export function createDeskFactory(deps: DiaryDeps): BookingDeskFactory {
  return (ownerId, opts) => new Desk(deps, ownerId, opts?.preview ?? false);
}

/** What the owner gets booking a caller from Call Details (issue 41, item 8). */
type CallBookResult =
  | Exclude<BookResult, { kind: 'unknown-slot' }>
  /** The time is not one the slot engine would ever offer (hours, notice, horizon, off the grid, a bank holiday): a 400. */
  | { kind: 'not-offered' }
  /** No such service for this owner (or it was archived). */
  | { kind: 'no-service' }
  /** The call already has a live booking (made by the agent, or by the owner a moment ago). */
  | { kind: 'call-booked'; booking: BookingSummary };

/**
 * The owner's side of the same desk (Call Details): free times from the same slot engine, more
 * at once than the agent's three, and a booking through the same claim, calendar write and
 * confirmation text as the agent's, one per call.
 */
export interface OwnerDesk {
  freeTimes(serviceId: number, after: number | undefined, limit: number, signal?: AbortSignal): Promise<OfferResult>;
  bookForCall(req: { callId: number; serviceId: number; start: number; callerName: string; callerNumber: string }, signal?: AbortSignal): Promise<CallBookResult>;
}

export function createOwnerDeskFactory(deps: DiaryDeps): (ownerId: number) => OwnerDesk {
  return (ownerId) => new Desk(deps, ownerId, false);
}

class Desk implements BookingDesk, OwnerDesk {
  private readonly calendar: CalendarReader & CalendarWriter;
  private readonly boundMs: number;

  constructor(private readonly deps: DiaryDeps, private readonly ownerId: number, private readonly preview: boolean) {
    this.calendar = deps.calendar ?? NO_CALENDAR;
    this.boundMs = deps.boundMs ?? CALENDAR_BOUND_MS;
  }

  async services(): Promise<BookableService[]> {
    return (await activeServices(this.deps.db, this.ownerId)).map((s) => ({ id: s.id, name: s.name, durationMinutes: s.durationMinutes, agentSentence: s.agentSentence }));
  }

  /** The service asked for, or the owner's first when none was named. */
  private async pick(serviceId: number | undefined): Promise<BookingServiceRow | undefined> {
    if (serviceId !== undefined) {
      const s = await serviceById(this.deps.db, this.ownerId, serviceId);
      return s && !s.archivedAt ? s : undefined;
    }
    return (await activeServices(this.deps.db, this.ownerId))[0];
  }

  private busy(from: number, to: number, signal?: AbortSignal, maxAgeMs?: number) {
    return bounded((s) => this.calendar.busy(this.ownerId, from, to, s, { maxAgeMs }), this.boundMs, signal);
  }

  async offer(req: OfferRequest, signal?: AbortSignal): Promise<OfferResult> {
    const service = await this.pick(req.serviceId);
    if (!service) return { kind: 'none' };
    const now = this.deps.now().getTime();
    return this.offerFor(service, now, req.wish, req.after?.getTime(), signal);
  }

  async freeTimes(serviceId: number, after: number | undefined, limit: number, signal?: AbortSignal): Promise<OfferResult> {
    const service = await this.pick(serviceId);
    if (!service) return { kind: 'none' };
    return this.offerFor(service, this.deps.now().getTime(), '', after, signal, limit);
  }

  private async offerFor(service: BookingServiceRow, now: number, wish: string, after: number | undefined, signal?: AbortSignal, limit?: number): Promise<OfferResult> {
    const { db } = this.deps;
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
    const found = findSlots({ now, rules, service, busy, booked, wish: parseWish(wish, now), after, limit });
    if (!found.length) return { kind: 'none' };
    return { kind: 'offered', slots: found.map((s) => this.offered(service, s.start)) };
  }

  private offered(service: BookingServiceRow, start: number): OfferedSlot {
    const ref = { serviceId: service.id, start };
    return {
      id: slotId(this.deps.keys.slot, this.ownerId, ref), serviceId: service.id, serviceName: service.name,
      start: new Date(start), end: new Date(start + service.durationMinutes * 60_000), spoken: spokenWhen(new Date(start)),
    };
  }

  book(req: BookRequest, signal?: AbortSignal): Promise<BookResult> {
    return this.agentClaim(req, undefined, signal);
  }

  /** The agent's book and move: a call may book more than one thing, so 'call-booked' never comes back here. */
  private async agentClaim(req: BookRequest, replaces: BookingRow | undefined, signal?: AbortSignal): Promise<BookResult> {
    const result = await this.claim(req, replaces, signal);
    return result.kind === 'call-booked' ? { kind: 'booked', booking: result.booking } : result;
  }

  async bookForCall(req: { callId: number; serviceId: number; start: number; callerName: string; callerNumber: string }, signal?: AbortSignal): Promise<CallBookResult> {
    const { db, keys } = this.deps;
    const service = await this.pick(req.serviceId);
    if (!service) return { kind: 'no-service' };
    // The rules alone (nothing booked, no calendar): a time the engine would never offer is the
    // owner's mistake (400), not a slot someone took (409).
    const rules = await loadRules(db, this.ownerId);
    if (!isFreeSlot({ now: this.deps.now().getTime(), rules, service, busy: [], booked: [] }, req.start)) return { kind: 'not-offered' };
    // The agent's own path from here, with a slot id the desk signs itself.
    const slot = slotId(keys.slot, this.ownerId, { serviceId: service.id, start: req.start });
    const result = await this.claim({ slotId: slot, callId: req.callId, callerName: req.callerName, callerNumber: req.callerNumber }, undefined, signal, true);
    return result.kind === 'unknown-slot' ? { kind: 'not-offered' } : result;
  }

  async move(bookingId: number, req: BookRequest, signal?: AbortSignal): Promise<BookResult> {
    const { bookings } = tablesOf(this.deps.db);
    const number = toE164(req.callerNumber);
    const old = (await this.deps.db.select().from(bookings).where(and(eq(bookings.id, bookingId), eq(bookings.userId, this.ownerId))).limit(1))[0];
    if (!old || old.status !== 'booked' || old.callerNumber !== number) return { kind: 'unknown-slot' };
    return this.agentClaim(req, old, signal);
  }

  private async claim(req: BookRequest, replaces: BookingRow | undefined, signal?: AbortSignal, onePerCall = false): Promise<BookResult | Extract<CallBookResult, { kind: 'call-booked' }>> {
    const { db, keys } = this.deps;
    const { bookings } = tablesOf(db);
    const ref = readSlotId(keys.slot, this.ownerId, req.slotId);
    if (!ref) return { kind: 'unknown-slot' };
    const service = await serviceById(db, this.ownerId, ref.serviceId);
    if (!service || service.archivedAt) return { kind: 'unknown-slot' };
    const callerNumber = toE164(req.callerNumber) ?? req.callerNumber;
    const now = this.deps.now().getTime();
    const rules = await loadRules(db, this.ownerId);
    // The calendar, re-read for this slot just before the claim: an event added since the offer blocks it.
    let busy;
    try {
      busy = await this.busy(ref.start - DAY_MS, ref.start + DAY_MS, signal);
    } catch (err) {
      if (err instanceof CalendarUnavailable) return { kind: 'unavailable', reason: err.message };
      throw err;
    }
    const taken = async (): Promise<BookResult> => {
      const next = await this.offerFor(service, now, '', ref.start, signal);
      return { kind: 'taken', next: next.kind === 'offered' ? next.slots : [] };
    };
    if (this.preview) {
      // The Try-it preview: the real answer, nothing written.
      const live = (await liveBookingsBetween(db, this.ownerId, ref.start - 2 * DAY_MS, ref.start + 2 * DAY_MS)).filter((b) => b.id !== replaces?.id);
      if (!isFreeSlot({ now, rules, service, busy, booked: asBlocked(live) }, ref.start)) return taken();
      const end = new Date(ref.start + service.durationMinutes * 60_000);
      return { kind: 'booked', booking: { id: 0, serviceName: service.name, start: new Date(ref.start), end, callerName: req.callerName, callerNumber, spoken: spokenWhen(new Date(ref.start)), status: 'booked' } };
    }
    const result = await claimSlot(db, {
      ownerId: this.ownerId, serviceId: service.id, durationMinutes: service.durationMinutes, bufferMinutes: service.bufferMinutes,
      start: ref.start, slotKey: slotKey(ref), callId: req.callId, callerName: req.callerName.trim(), callerNumber,
      rules, busy, now, replaces: replaces?.id, onePerCall,
    });
    if (result.kind === 'taken') return taken();
    if (result.kind === 'call-booked') {
      const held = await serviceById(db, this.ownerId, result.row.serviceId);
      return { kind: 'call-booked', booking: toSummary(result.row, held?.name ?? service.name) };
    }
    if (result.fresh) {
      const written = await this.writeToCalendar(result.row, service, signal);
      if (written === 'taken') {
        // The calendar already holds an event for this slot (another box, or the owner): give the slot up.
        await db.update(bookings).set({ status: 'cancelled', cancelledBy: 'moved', cancelledAt: new Date(now) }).where(eq(bookings.id, result.row.id));
        return taken();
      }
      if (replaces) await this.after(() => this.deps.events?.moved?.(replaces, result.row, 'caller'), result.row.id);
      else await this.after(() => this.deps.events?.booked?.(result.row, service), result.row.id);
    }
    return { kind: 'booked', booking: toSummary(result.row, service.name) };
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

  private async after(fn: () => Promise<void> | undefined, bookingId: number): Promise<void> {
    try {
      await fn();
    } catch (err) {
      this.deps.log.warn({ bookingId, err: err instanceof Error ? err.message : String(err) }, 'booking follow-up failed');
    }
  }

  async findByCaller(callerNumber: string): Promise<BookingSummary[]> {
    const { bookingServices, bookings } = tablesOf(this.deps.db);
    const number = toE164(callerNumber);
    if (!number) return [];
    const rows = await this.deps.db.select({ b: bookings, name: bookingServices.name }).from(bookings)
      .innerJoin(bookingServices, eq(bookingServices.id, bookings.serviceId))
      .where(and(eq(bookings.userId, this.ownerId), eq(bookings.callerNumber, number), eq(bookings.status, 'booked'), gt(bookings.startAt, this.deps.now())))
      .orderBy(asc(bookings.startAt));
    return rows.map((r) => toSummary(r.b, r.name));
  }

  async cancelByCaller(bookingId: number, callerNumber: string): Promise<BookingSummary | null> {
    const number = toE164(callerNumber);
    if (!number) return null;
    const found = (await this.findByCaller(number)).find((b) => b.id === bookingId);
    if (!found) return null;
    if (this.preview) return { ...found, status: 'cancelled' };
    const row = await cancelBooking(this.deps.db, this.ownerId, bookingId, 'caller', this.deps.now());
    if (!row) return null;
    await this.after(() => this.deps.events?.cancelled?.(row, 'caller'), row.id);
    return toSummary(row, found.serviceName);
  }

  async leaveRequest(note: BookingRequestNote): Promise<void> {
    if (this.preview) return;
    await this.deps.events?.request?.(this.ownerId, note);
  }
}

/** Cancels a live booking; null when it was not live (already cancelled, someone else's). */
export async function cancelBooking(db: Db, ownerId: number, bookingId: number, by: 'owner' | 'caller', now: Date): Promise<BookingRow | null> {
  const { bookings } = tablesOf(db);
  const rows = await db.update(bookings).set({ status: 'cancelled', cancelledBy: by, cancelledAt: now })
    .where(and(eq(bookings.id, bookingId), eq(bookings.userId, ownerId), eq(bookings.status, 'booked'))).returning();
  return rows[0] ?? null;
}
