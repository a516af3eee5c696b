import { randomUUID } from 'node:crypto';
import type {
  BookablePerson,
  BookableService,
  BookingDesk,
  BookingRequestNote,
  BookingSummary,
  BookRequest,
  BookResult,
  OfferedSlot,
  OfferRequest,
  OfferResult,
} from '../../dialogue/agent/booking-desk.js';

// A FAKE diary for the agent's tests (issue 41): an in-memory BookingDesk that issues its own
// slot ids, claims a slot once (the first caller gets it, the next is offered the next free
// time) and answers "unavailable" or slowly on cue. The real desk (core/booking) is connected
// at merge; this only stands in for it behind the same interface.

export interface FakeSlot {
  start: Date;
  spoken: string;
  /** The person the time is with (issue 58); offers name them when the desk has `people`. */
  staffId?: number;
}

export interface FakeDeskOptions {
  services?: BookableService[];
  /** The people who do the services; absent, the owner alone (offers name nobody). */
  people?: BookablePerson[];
  /** The team's role words, members who do no service included; absent, those of `people`. */
  roleWords?: string[];
  /** Free times, soonest first, with how they are said. */
  slots: FakeSlot[];
}

export const BOILER_SERVICE: BookableService = { id: 1, name: 'boiler service', durationMinutes: 60, agentSentence: null };

/** Free times said the way the real desk says them, an hour apart from 10:00 on Tuesday 3 December 2030. */
export function fakeSlots(spoken: string[]): FakeSlot[] {
  const base = Date.UTC(2030, 11, 3, 10);
  return spoken.map((s, i) => ({ start: new Date(base + i * 3600_000), spoken: s }));
}

export class FakeBookingDesk implements BookingDesk {
  readonly offers: OfferRequest[] = [];
  readonly bookRequests: BookRequest[] = [];
  readonly requests: BookingRequestNote[] = [];
  readonly bookings: BookingSummary[] = [];
  /** While set, every call answers { kind: 'unavailable' } (offer, book, move) or throws (the rest). */
  unavailable = false;
  /** While set, every call waits this long first (a diary slower than the agent's bound). */
  delayMs = 0;
  private readonly issued = new Map<string, { serviceId: number; slot: FakeSlot }>();
  private readonly taken = new Set<number>();
  private readonly byCallAndSlot = new Map<string, BookingSummary>();
  private nextBookingId = 1;

  constructor(private readonly opts: FakeDeskOptions) {}

  async services(): Promise<BookableService[]> {
    return this.opts.services ?? [BOILER_SERVICE];
  }

  async people(): Promise<BookablePerson[]> {
    return this.opts.people ?? [{ id: 1, name: 'Owner', otherNames: [] }];
  }

  async roleWords(): Promise<string[]> {
    return this.opts.roleWords ?? (this.opts.people ?? []).flatMap((p) => (p.roleWord ? [p.roleWord] : []));
  }

  async offer(req: OfferRequest, signal?: AbortSignal): Promise<OfferResult> {
    this.offers.push(req);
    await this.wait(signal);
    if (this.unavailable) return { kind: 'unavailable', reason: 'the fake diary is down' };
    const slots = this.free(req.serviceId ?? this.service().id, req.after, req.staffIds ?? req.staffId);
    return slots.length ? { kind: 'offered', slots } : { kind: 'none' };
  }

  async book(req: BookRequest, signal?: AbortSignal): Promise<BookResult> {
    this.bookRequests.push(req);
    await this.wait(signal);
    if (this.unavailable) return { kind: 'unavailable', reason: 'the fake diary is down' };
    return this.claim(req);
  }

  async findByCaller(callerNumber: string): Promise<BookingSummary[]> {
    await this.wait();
    if (this.unavailable) throw new Error('the fake diary is down');
    return this.bookings.filter((b) => b.callerNumber === callerNumber && b.status === 'booked').sort((a, b) => a.start.getTime() - b.start.getTime());
  }

  async cancelByCaller(bookingId: number, callerNumber: string): Promise<BookingSummary | null> {
    await this.wait();
    if (this.unavailable) throw new Error('the fake diary is down');
    const b = this.bookings.find((x) => x.id === bookingId && x.callerNumber === callerNumber && x.status === 'booked');
    if (!b) return null;
    b.status = 'cancelled';
    this.taken.delete(b.start.getTime());
    return b;
  }

  async move(bookingId: number, req: BookRequest, signal?: AbortSignal): Promise<BookResult> {
    this.bookRequests.push(req);
    await this.wait(signal);
    if (this.unavailable) return { kind: 'unavailable', reason: 'the fake diary is down' };
    const old = this.bookings.find((x) => x.id === bookingId && x.status === 'booked');
    const result = this.claim(req);
    if (result.kind === 'booked' && old) {
      old.status = 'cancelled';
      this.taken.delete(old.start.getTime());
    }
    return result;
  }

  async leaveRequest(note: BookingRequestNote): Promise<void> {
    // Stored even while the diary is "down": requests are the box's own rows.
    this.requests.push(note);
  }

  private service(): BookableService {
    return (this.opts.services ?? [BOILER_SERVICE])[0]!;
  }

  private claim(req: BookRequest): BookResult {
    const found = this.issued.get(req.slotId);
    if (!found) return { kind: 'unknown-slot' };
    const at = found.slot.start.getTime();
    // Idempotent per call and slot: a retried book answers the same booking.
    const again = this.byCallAndSlot.get(`${req.callId}:${req.slotId}`);
    if (again) return { kind: 'booked', booking: again };
    if (this.taken.has(at)) return { kind: 'taken', next: this.free(found.serviceId, found.slot.start) };
    this.taken.add(at);
    const svc = (this.opts.services ?? [BOILER_SERVICE]).find((s) => s.id === found.serviceId) ?? this.service();
    const booking: BookingSummary = {
      id: this.nextBookingId++,
      serviceName: svc.name,
      start: found.slot.start,
      end: new Date(at + svc.durationMinutes * 60_000),
      callerName: req.callerName,
      callerNumber: req.callerNumber,
      spoken: found.slot.spoken,
      status: 'booked',
      ...this.named(found.slot),
    };
    this.bookings.push(booking);
    this.byCallAndSlot.set(`${req.callId}:${req.slotId}`, booking);
    return { kind: 'booked', booking };
  }

  private named(slot: FakeSlot): { staffName?: string } {
    const name = this.opts.people?.find((p) => p.id === slot.staffId)?.name;
    return name ? { staffName: name } : {};
  }

  private free(serviceId: number, after?: Date, staffId?: number | number[]): OfferedSlot[] {
    const whose = (s: FakeSlot) => staffId === undefined || (Array.isArray(staffId) ? s.staffId !== undefined && staffId.includes(s.staffId) : s.staffId === staffId);
    const svc = (this.opts.services ?? [BOILER_SERVICE]).find((s) => s.id === serviceId) ?? this.service();
    return this.opts.slots
      .filter((s) => !this.taken.has(s.start.getTime()) && (!after || s.start.getTime() > after.getTime()) && whose(s))
      .slice(0, 3)
      .map((slot) => {
        const id = randomUUID();
        this.issued.set(id, { serviceId: svc.id, slot });
        return { id, serviceId: svc.id, serviceName: svc.name, start: slot.start, end: new Date(slot.start.getTime() + svc.durationMinutes * 60_000), spoken: slot.spoken, ...this.named(slot) };
      });
  }

  private async wait(signal?: AbortSignal): Promise<void> {
    if (this.delayMs > 0) await new Promise<void>((resolve) => {
      const t = setTimeout(resolve, this.delayMs);
      t.unref(); // a hung diary must not keep the test process alive
      signal?.addEventListener('abort', () => (clearTimeout(t), resolve()), { once: true });
    });
  }
}
