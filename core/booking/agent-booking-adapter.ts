import { toE164 } from '../../contract/phone.js';
import type { BookableService, BookingDesk, BookingDeskFactory, BookingRequestNote, BookingSummary, BookResult, BookRequest, OfferedSlot, OfferRequest, OfferResult } from '../../dialogue/agent/booking-desk.js';
import type { BookingRow, BookingServiceRow } from '../db/schema.js';
import { DAY_MS } from '../time/london-time.js';
import { Diary, type DiaryDeps } from './diary.js';
import type { BookingRules } from './rules/booking-rules.js';
import { readSlotId, slotId } from './rules/slot-id.js';
import { isFreeSlot } from './rules/slots.js';
import { spokenWhen } from '../../dialogue/language/dates.js';
import { asBlocked, cancelBooking, liveBookingsBetween, ownedBooking, upcomingOfCaller } from './store/bookings.js';
import { loadRules } from './store/rules.js';
import { activeService, activeServices } from './store/services.js';

// The core's side of the agent's port (dialogue/agent/booking-desk.ts): the diary behind the
// interface the agent books through. Offers carry slot ids signed for this owner, so only a
// time the desk offered can be booked.

/** A booking as the agent reads it back. */
function toSummary(row: BookingRow, serviceName: string): BookingSummary {
  return {
    id: row.id, serviceName, start: row.startAt, end: row.endAt, callerName: row.callerName, callerNumber: row.callerNumber,
    spoken: spokenWhen(row.startAt), status: row.status,
  };
}

/** The desk factory the agent uses: `services.booking.desk(ownerId)`. */
export function createDeskFactory(deps: DiaryDeps): BookingDeskFactory {
  return (ownerId, opts) => new AgentDesk(new Diary(deps, ownerId), opts?.preview ?? false);
}

class AgentDesk implements BookingDesk {
  private readonly ownerId: number;

  constructor(private readonly diary: Diary, private readonly preview: boolean) {
    this.ownerId = diary.ownerId;
  }

  private get db() {
    return this.diary.deps.db;
  }

  async services(): Promise<BookableService[]> {
    return (await activeServices(this.db, this.ownerId)).map((s) => ({ id: s.id, name: s.name, durationMinutes: s.durationMinutes, agentSentence: s.agentSentence }));
  }

  async offer(req: OfferRequest, signal?: AbortSignal): Promise<OfferResult> {
    // The service asked for, or the owner's first when none was named.
    const service = req.serviceId !== undefined ? await activeService(this.db, this.ownerId, req.serviceId) : (await activeServices(this.db, this.ownerId))[0];
    if (!service) return { kind: 'none' };
    return this.offerOf(service, req.wish, req.after?.getTime(), signal);
  }

  private async offerOf(service: BookingServiceRow, wish: string, after: number | undefined, signal?: AbortSignal): Promise<OfferResult> {
    const free = await this.diary.freeTimes(service, wish, after, signal);
    return free.kind === 'free' ? { kind: 'offered', slots: free.slots.map((s) => this.offered(service, s.start)) } : free;
  }

  private offered(service: BookingServiceRow, start: number): OfferedSlot {
    return {
      id: slotId(this.diary.deps.keys.slot, this.ownerId, { serviceId: service.id, start }), serviceId: service.id, serviceName: service.name,
      start: new Date(start), end: new Date(start + service.durationMinutes * 60_000), spoken: spokenWhen(new Date(start)),
    };
  }

  book(req: BookRequest, signal?: AbortSignal): Promise<BookResult> {
    return this.claim(req, undefined, signal);
  }

  async move(bookingId: number, req: BookRequest, signal?: AbortSignal): Promise<BookResult> {
    const old = await ownedBooking(this.db, this.ownerId, bookingId);
    if (!old || old.status !== 'booked' || old.callerNumber !== toE164(req.callerNumber)) return { kind: 'unknown-slot' };
    return this.claim(req, old, signal);
  }

  /** Book and move; a call may book more than one thing, so one booking per call is not asked for. */
  private async claim(req: BookRequest, replaces: BookingRow | undefined, signal?: AbortSignal): Promise<BookResult> {
    const { db } = this;
    const ref = readSlotId(this.diary.deps.keys.slot, this.ownerId, req.slotId);
    if (!ref) return { kind: 'unknown-slot' };
    const service = await activeService(db, this.ownerId, ref.serviceId);
    if (!service) return { kind: 'unknown-slot' };
    const callerNumber = toE164(req.callerNumber) ?? req.callerNumber;
    const now = this.diary.deps.now().getTime();
    const rules = await loadRules(db, this.ownerId);
    const taken = async (): Promise<BookResult> => {
      const next = await this.offerOf(service, '', ref.start, signal);
      return { kind: 'taken', next: next.kind === 'offered' ? next.slots : [] };
    };
    if (this.preview) return this.previewClaim(service, rules, ref.start, { callerName: req.callerName, callerNumber }, replaces, taken, signal);
    const result = await this.diary.claim({ service, rules, start: ref.start, callId: req.callId, callerName: req.callerName.trim(), callerNumber, now, replaces }, signal);
    if (result.kind === 'unavailable') return result;
    // A time the rules no longer offer (changed since the offer) is as taken as a booked one.
    if (result.kind !== 'booked') return taken();
    return { kind: 'booked', booking: toSummary(result.row, service.name) };
  }

  /** The Try-it preview: the real answer, nothing written. */
  private async previewClaim(
    service: BookingServiceRow, rules: BookingRules, start: number, caller: { callerName: string; callerNumber: string },
    replaces: BookingRow | undefined, taken: () => Promise<BookResult>, signal?: AbortSignal,
  ): Promise<BookResult> {
    const around = await this.diary.busyAround(start, signal);
    if (around.kind === 'unavailable') return around;
    const live = (await liveBookingsBetween(this.db, this.ownerId, start - 2 * DAY_MS, start + 2 * DAY_MS)).filter((b) => b.id !== replaces?.id);
    if (!isFreeSlot({ now: this.diary.deps.now().getTime(), rules, service, busy: around.busy, booked: asBlocked(live) }, start)) return taken();
    const end = new Date(start + service.durationMinutes * 60_000);
    return { kind: 'booked', booking: { id: 0, serviceName: service.name, start: new Date(start), end, ...caller, spoken: spokenWhen(new Date(start)), status: 'booked' } };
  }

  async findByCaller(callerNumber: string): Promise<BookingSummary[]> {
    const number = toE164(callerNumber);
    if (!number) return [];
    return (await upcomingOfCaller(this.db, this.ownerId, number, this.diary.deps.now())).map((r) => toSummary(r.row, r.serviceName));
  }

  async cancelByCaller(bookingId: number, callerNumber: string): Promise<BookingSummary | null> {
    const number = toE164(callerNumber);
    if (!number) return null;
    const found = (await this.findByCaller(number)).find((b) => b.id === bookingId);
    if (!found) return null;
    if (this.preview) return { ...found, status: 'cancelled' };
    const row = await cancelBooking(this.db, this.ownerId, bookingId, 'caller', this.diary.deps.now());
    if (!row) return null;
    await this.diary.after(() => this.diary.deps.events?.cancelled?.(row, 'caller'), row.id);
    return toSummary(row, found.serviceName);
  }

  async leaveRequest(note: BookingRequestNote): Promise<void> {
    if (this.preview) return;
    await this.diary.deps.events?.request?.(this.ownerId, note);
  }
}
