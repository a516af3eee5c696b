import { spokenNameOf } from '../../contract/member-name.js';
import { toE164 } from '../../contract/phone.js';
import type { BookablePerson, BookableService, BookingDesk, BookingDeskFactory, BookingRequestNote, BookingSummary, BookResult, BookRequest, OfferedSlot, OfferRequest, OfferResult } from '../../dialogue/agent/booking-desk.js';
import type { BookingRow, BookingServiceRow } from '../db/schema.js';
import { Diary, namesPeople, type DiaryDeps, type FreeSlot } from './diary.js';
import type { BookingRules } from './rules/booking-rules.js';
import { readSlotId, slotId } from './rules/slot-id.js';
import { spokenWhen } from '../../dialogue/language/dates.js';
import { cancelBooking, ownedBooking, upcomingOfCaller } from './store/bookings.js';
import { memberById, peopleForService } from './store/people.js';
import { currentMembers } from '../team/store.js';
import { loadRules } from './store/rules.js';
import { activeService, activeServices } from './store/services.js';

// The core's side of the agent's port (dialogue/agent/booking-desk.ts): the diary behind the
// interface the agent books through. Offers carry slot ids signed for this owner and person,
// so only a time the desk offered can be booked, and only with the person it was offered with.

/** A booking as the agent reads it back; `staffName` when the business names its people. */
function toSummary(row: BookingRow, serviceName: string, staffName?: string, holdMinutes?: number): BookingSummary {
  return {
    id: row.id, serviceName, start: row.startAt, end: row.endAt, callerName: row.callerName, callerNumber: row.callerNumber,
    spoken: spokenWhen(row.startAt), status: row.status, ...(staffName && { staffName }),
    ...(holdMinutes !== undefined && row.depositState === 'awaiting' && row.depositPence !== null && { deposit: { pence: row.depositPence, holdMinutes } }),
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

  /** The service asked for, or the owner's first when none was named. */
  private async serviceOf(serviceId: number | undefined): Promise<BookingServiceRow | undefined> {
    return serviceId !== undefined ? activeService(this.db, this.ownerId, serviceId) : (await activeServices(this.db, this.ownerId))[0];
  }

  async people(serviceId?: number): Promise<BookablePerson[]> {
    const service = await this.serviceOf(serviceId);
    if (!service) return [];
    return (await peopleForService(this.db, this.ownerId, service.id)).people.map((p) => ({ id: p.staffId, name: p.name, otherNames: p.otherNames, roleWord: p.roleWord }));
  }

  async roleWords(): Promise<string[]> {
    return (await currentMembers(this.db, this.ownerId)).flatMap((m) => (m.roleWord?.trim() ? [m.roleWord.trim()] : []));
  }

  async offer(req: OfferRequest, signal?: AbortSignal): Promise<OfferResult> {
    const service = await this.serviceOf(req.serviceId);
    if (!service) return { kind: 'none' };
    return this.offerOf(service, req.wish, req.after?.getTime(), signal, req.staffIds ?? req.staffId);
  }

  private async offerOf(service: BookingServiceRow, wish: string, after: number | undefined, signal?: AbortSignal, staffId?: number | readonly number[]): Promise<OfferResult> {
    const free = await this.diary.freeTimes(service, wish, after, signal, undefined, staffId ?? 'anyone');
    return free.kind === 'free' ? { kind: 'offered', slots: free.slots.map((s) => this.offered(service, s, free.named)) } : free;
  }

  private offered(service: BookingServiceRow, slot: FreeSlot, named: boolean): OfferedSlot {
    const { start, end, person } = slot;
    return {
      id: slotId(this.diary.deps.keys.slot, this.ownerId, { serviceId: service.id, start, staffId: person.staffId }), serviceId: service.id, serviceName: service.name,
      start: new Date(start), end: new Date(end), spoken: spokenWhen(new Date(start)), ...(named && { staffName: spokenNameOf(person) }),
    };
  }

  /** The name a booking is said with: its person's (as spokenNameOf says it), when the service is done by more than the owner. */
  private async staffNameOf(row: BookingRow): Promise<string | undefined> {
    const team = await peopleForService(this.db, this.ownerId, row.serviceId);
    if (!namesPeople(team.people)) return undefined;
    const member = row.staffId === null ? undefined : await memberById(this.db, this.ownerId, row.staffId);
    return member && spokenNameOf(member);
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
    // The next times with the same person: a caller who asked for Tom still wants Tom; an "anyone" offer had someone free.
    const taken = async (): Promise<BookResult> => {
      const next = await this.offerOf(service, '', ref.start, signal, ref.staffId);
      return { kind: 'taken', next: next.kind === 'offered' ? next.slots : [] };
    };
    if (this.preview) return this.previewClaim(service, rules, ref.start, ref.staffId, { callerName: req.callerName, callerNumber }, replaces, taken, signal);
    const result = await this.diary.claim({ service, rules, start: ref.start, callId: req.callId, callerName: req.callerName.trim(), callerNumber, now, replaces, staffId: ref.staffId }, signal);
    if (result.kind === 'unavailable') return result;
    if (result.kind === 'deposit-request') return { kind: 'deposit-request', why: result.why === 'untextable' ? 'deposit-untextable' : 'deposit-unavailable', depositPence: result.pence, reason: result.reason };
    // A time the rules no longer offer (changed since the offer) is as taken as a booked one.
    if (result.kind !== 'booked') return taken();
    // A fresh hold is said with its deposit; a move keeps its booking's deposit quietly.
    return { kind: 'booked', booking: toSummary(result.row, service.name, await this.staffNameOf(result.row), replaces ? undefined : service.depositHoldMinutes) };
  }

  /** The Try-it preview: the real answer, nothing written. */
  private async previewClaim(
    service: BookingServiceRow, rules: BookingRules, start: number, staffId: number | undefined, caller: { callerName: string; callerNumber: string },
    replaces: BookingRow | undefined, taken: () => Promise<BookResult>, signal?: AbortSignal,
  ): Promise<BookResult> {
    const would = await this.diary.wouldBook({ service, rules, start, now: this.diary.deps.now().getTime(), replaces, staffId }, signal);
    if (would.kind === 'unavailable') return would;
    if (would.kind === 'taken') return taken();
    const end = new Date(start + (would.person.durationMinutes ?? service.durationMinutes) * 60_000);
    const staffName = would.named ? spokenNameOf(would.person) : undefined;
    // The Try-it caller is the owner trying it: a deposit service is said as held, whatever their number.
    const plan = await this.diary.depositPlan({ service, replaces, callerNumber: '+447700900000', now: this.diary.deps.now().getTime() });
    const deposit = plan.kind === 'hold' ? { deposit: { pence: plan.pence, holdMinutes: service.depositHoldMinutes } } : {};
    return { kind: 'booked', booking: { id: 0, serviceName: service.name, start: new Date(start), end, ...caller, spoken: spokenWhen(new Date(start)), status: 'booked', ...(staffName && { staffName }), ...deposit } };
  }

  async findByCaller(callerNumber: string): Promise<BookingSummary[]> {
    const number = toE164(callerNumber);
    if (!number) return [];
    return Promise.all((await upcomingOfCaller(this.db, this.ownerId, number, this.diary.deps.now())).map(async (r) => toSummary(r.row, r.serviceName, await this.staffNameOf(r.row))));
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
    return toSummary(row, found.serviceName, found.staffName);
  }

  async leaveRequest(note: BookingRequestNote): Promise<void> {
    if (this.preview) return;
    await this.diary.deps.events?.request?.(this.ownerId, note);
  }
}
