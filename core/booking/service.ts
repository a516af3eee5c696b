import type { OwnerNewsPort } from '../ports/owner-news.js';
import type { RefusalRule } from '../../contract/schemas/booking.js';
import type { CoreDeps } from '../deps.js';
import type { Db } from '../db/client.js';
import type { BookingRow, BookingServiceRow } from '../db/schema.js';
import { formatPhone } from '../../contract/phone-display.js';
import { DAY_MS, londonDayStartUtc } from '../time/london-time.js';
import { claimSlot } from './store/claim.js';
import { calendarIcs } from './calendars/ics-writer.js';
import { slotKey } from './rules/slot-id.js';
import { bookingRef, readBookingRef } from './rules/booking-link.js';
import { ownerDid } from '../call-handling/store.js';
import type { CallerTextRoad } from '../caller-texts/road.js';
import { DEFAULT_BACKOFF, type BackoffPolicy } from '../time/backoff.js';
import { JobQueue } from '../jobs/queue.js';
import { errorMessage } from '../jobs/retryable.js';
import { JobWorker, type JobHandler } from '../jobs/worker.js';
import type { MessageGateway } from '../notify/gateway.js';
import { toSmsText } from '../notify/message.js';
import { planNotification } from '../notify/policy.js';
import { createDeskFactory } from './agent-booking-adapter.js';
import { bookingEvent, eventUid, type BookingEvents, type CalendarMember } from './diary.js';
import { createOwnerBookingFactory, type OwnerBooking } from './owner-booking.js';
import { bounded, CALENDAR_BOUND_MS } from './calendars/calendar-gate.js';
import type { BookingDeskFactory, BookingRequestNote } from '../../dialogue/agent/booking-desk.js';
import { loadBookingKeys, type BookingKeys } from './calendars/keys.js';
import { ownerCalendars } from './calendars/owner-calendars.js';
import type { Interval } from './rules/slots.js';
import { CalendarHealth, watchedReader } from './calendars/calendar-health.js';
import { createIcalAddressReader, readIcalAddressOnce } from './calendars/ical-address.js';
import type { GuardOptions } from '../webhooks/address-guard.js';
import type { CalendarGuard } from './calendars/guarded-fetch.js';
import { shortWhen } from '../../dialogue/language/dates.js';
import { bookingsFrom, bookingWithService, cancelBooking, ownedBooking, slotHeldAgain, upcomingOfCaller, type NamedBooking } from './store/bookings.js';
import { businessName } from './store/business-name.js';
import { ownerToTell, recordOwnerNotice, settleOwnerNotice } from './store/owner-notices.js';
import { ownerOfFeed } from './calendars/calendar-settings.js';
import { loadRules } from './store/rules.js';
import { memberById, membersById, peopleForService, personById, personOfBooking } from './store/people.js';
import { personRules, personService } from './rules/person-hours.js';
import { serviceById } from './store/services.js';
import { callerCancelledText, confirmationText, isCancelReply, movedText, ownerCancelledText, reminderAt, reminderText } from './rules/text-bodies.js';
import { bookingLinkWarning } from './rules/public-link.js';
import type { DepositDesk } from '../payments/parts.js';
import { depositPounds } from './rules/deposit-settings.js';

/** The owner's note of a booking request: why nothing was booked, and for a deposit service the time and amount (issue 59). */
export function requestText(note: BookingRequestNote): string {
  const pence = note.depositPence ?? 0;
  switch (note.why) {
    case 'deposit-untextable':
      return `Booking request from ${note.callerName} (${note.callerNumber}): ${note.wish}. Not booked: it needs a ${depositPounds(pence)} deposit and this caller cannot be texted the link to pay it (not a UK mobile, withheld, or they replied STOP). Please call them to arrange it.`;
    case 'deposit-unavailable':
      return `Booking request from ${note.callerName} (${note.callerNumber}): ${note.wish}. Not booked: it needs a ${depositPounds(pence)} deposit and the pay link could not be made (${note.reason ?? 'Stripe could not be reached'}). Please call them to confirm it.`;
    default: {
      const why = note.why === 'diary-unavailable' ? 'the diary could not be reached' : 'no offered time suited';
      return `Booking request from ${note.callerName} (${note.callerNumber}): "${note.wish}". Not booked: ${why}. Please call them to agree a time.`;
    }
  }
}

/** The owner's push alert of a booking the agent made (issue 54): who, what and when, as Bookings lists it. */
function bookedNewsText(row: Pick<BookingRow, 'callerName' | 'callerNumber' | 'startAt'>, service: string): string {
  return `${row.callerName} (${formatPhone(row.callerNumber)}) booked ${service} for ${shortWhen(row.startAt)}.`;
}

const BOOKING_TEXT_JOB = 'booking-text';
/** The owner told (a booking request, a caller's cancellation): its own job kind, so a retried call tells them once. */
const BOOKING_OWNER_JOB = 'booking-owner';
/** A booking's event written to, or removed from, the owner's CalDAV calendar when it failed at first: until done. */
const BOOKING_CALENDAR_JOB = 'booking-calendar';
/** With the default back-off (5 s doubling to 30 min) about half a day of tries: a calendar down overnight still gets the event. */
const CALENDAR_ATTEMPTS = 30;
type TextWhat = 'confirm' | 'reminder' | 'owner-cancelled' | 'caller-cancelled' | 'moved';
/** One key per text and booking: the road sends each once, whatever retries or cores. */
export const bookingTextKey = (what: TextWhat, bookingId: number) => `booking-text:${what}:${bookingId}`;

export interface BookingOptions {
  keys?: BookingKeys;
  pollMs?: number;
  /** The jobs' back-off (default DEFAULT_BACKOFF); tests shorten it. */
  backoff?: BackoffPolicy;
  /** Who the caller texts go through: the caller-texts road (STOP, UK mobiles, once per key). */
  road: CallerTextRoad;
  gateway: MessageGateway;
  /** Push alerts of a booking's news on the owner's devices (core/push). */
  ownerNews?: OwnerNewsPort;
  /**
   * Test-only seam for every calendar request, CalDAV and iCal alike (a local Radicale or iCal
   * server on loopback; a stubbed resolver), passed in code, never from the environment.
   */
  calendarGuard?: GuardOptions;
  /**
   * Test-only: the bound on a calendar server's answer (default CALENDAR_BOUND_MS). A test whose
   * calendar server shares a loaded machine with it widens it; the bound itself is tested alone.
   */
  calendarBoundMs?: number;
  /** Issue 59: the owner's deposits (core/payments/deposits); absent = no deposits, booking exactly as before. */
  deposits?: DepositDesk;
}

/**
 * Booking (issue 41): the desk the agent uses, the texts to callers on their own durable job
 * kind, and the owner told of requests and cancellations. Built by withAppServices.
 */
export class BookingService {
  readonly keys: BookingKeys;
  /** What every calendar request goes through: the address guard with the operator's named LAN hosts. */
  readonly calendarGuard: CalendarGuard;
  readonly desk: BookingDeskFactory;
  /** The owner booking a caller from Call Details (issue 41, item 8): the same claim, calendar write and texts. */
  readonly ownerBooking: (ownerId: number) => OwnerBooking;
  readonly queue: JobQueue;
  private readonly worker: JobWorker;
  /** Every read and write of the owners' calendars (tests count the reads a claim makes). */
  readonly calendar: ReturnType<typeof ownerCalendars>;
  /** Whether each owner's calendar answered its last read (the Calendar tab says when it stopped). */
  readonly calendarHealth = new CalendarHealth();
  /** Issue 59: the deposit desk booking holds slots through; undefined = deposits off. */
  readonly deposits: DepositDesk | undefined;

  constructor(private readonly deps: CoreDeps, private readonly opts: BookingOptions) {
    const { config, database, log, now } = deps;
    this.keys = opts.keys ?? loadBookingKeys(process.env, config.dataDir);
    this.calendarGuard = { ...opts.calendarGuard, allowedPrivateHosts: config.calendars.allowedPrivateHosts };
    const icalAddress = createIcalAddressReader({ now, log, guard: this.calendarGuard });
    this.calendar = watchedReader(ownerCalendars({ db: database.db, keys: this.keys, now, guard: this.calendarGuard, icalAddress }), this.calendarHealth, now);
    this.deposits = opts.deposits;
    const diary = { db: database.db, now, keys: this.keys, log, calendar: this.calendar, events: this.events(), boundMs: opts.calendarBoundMs, deposits: opts.deposits };
    // The agent's bookings are news to the owner (a push alert on the devices that take bookings);
    // the owner's own, from Call Details, are not.
    this.desk = createDeskFactory({ ...diary, events: { ...diary.events, booked: (row, service) => this.bookedByAgent(row, service) } });
    this.ownerBooking = createOwnerBookingFactory(diary);
    this.queue = new JobQueue(database.db, now, { leaseMs: config.jobs.leaseMs, backoff: opts.backoff ?? DEFAULT_BACKOFF, kinds: [BOOKING_TEXT_JOB, BOOKING_OWNER_JOB, BOOKING_CALENDAR_JOB] });
    this.worker = new JobWorker({ queue: this.queue, handlers: { [BOOKING_TEXT_JOB]: this.textHandler(), [BOOKING_OWNER_JOB]: async (job) => this.tellOwner(Number(job.payload.ownerId), String(job.payload.text), job.key), [BOOKING_CALENDAR_JOB]: (job) => this.calendarJob(String(job.payload.op), Number(job.payload.bookingId)) }, log, pollMs: opts.pollMs ?? 1000, concurrency: 1 });
  }

  /** A pasted iCal address read once, through the same guard as the desk's reads: what it holds, or why it cannot be read. */
  readIcalAddress(url: string, signal: AbortSignal): Promise<Interval[]> {
    return readIcalAddressOnce(url, this.deps.now().getTime(), signal, this.calendarGuard);
  }

  private get db(): Db {
    return this.deps.database.db;
  }

  private async enqueue(what: TextWhat, row: BookingRow, extra: Record<string, unknown> = {}, runAt?: Date): Promise<void> {
    if (await this.queue.enqueue(BOOKING_TEXT_JOB, bookingTextKey(what, row.id), { what, bookingId: row.id, ...extra }, { maxAttempts: 6, runAt })) this.worker.kick();
  }

  /** After a booking is made: the confirmation now, the reminder the evening before (when due). */
  private async booked(row: BookingRow): Promise<void> {
    await this.enqueue('confirm', row);
    const at = reminderAt(row.startAt, row.createdAt);
    if (at) await this.enqueue('reminder', row, { start: row.startAt.getTime() }, at);
  }

  /** A booking the agent made: the caller's texts as any booking's, and the owner's devices told at once. */
  private async bookedByAgent(row: BookingRow, service: BookingServiceRow): Promise<void> {
    await this.booked(row);
    const member = await this.memberOf(row);
    const what = member ? `${service.name} with ${member.name}` : service.name;
    this.opts.ownerNews?.({ userId: row.userId, event: `booking-made-${row.id}`, kind: 'booking', staffId: row.staffId, title: 'Bookings', body: bookedNewsText(row, what), url: '/dashboard/bookings', callerNumber: row.callerNumber });
  }

  private events(): BookingEvents {
    return {
      booked: (row) => this.booked(row),
      cancelled: async (row, by) => {
        // A deposit taken or awaited: the deposit side refunds, keeps or expires it (issue 59).
        if (row.depositState === 'awaiting' || row.depositState === 'paid') await this.deposits?.cancelled(row.id, by);
        await this.enqueue(by === 'owner' ? 'owner-cancelled' : 'caller-cancelled', row);
        await this.removeFromCalendar(row);
        if (by === 'caller') await this.ownerJob(row.userId, `${row.callerName} (${row.callerNumber}) cancelled their booking on ${shortWhen(row.startAt)}.`, `booking-cancelled-${row.id}`);
      },
      moved: async (from, to) => {
        await this.enqueue('moved', to, { from: from.startAt.getTime() });
        const at = reminderAt(to.startAt, to.createdAt);
        if (at) await this.enqueue('reminder', to, { start: to.startAt.getTime() }, at);
        await this.removeFromCalendar(from);
      },
      request: (ownerId, note) => this.request(ownerId, note),
      unwritten: (row) => this.calendarLater('write', row),
    };
  }

  /** Removes a cancelled or moved booking's event now, or on the jobs when the calendar cannot be reached. */
  private async removeFromCalendar(row: BookingRow): Promise<void> {
    try {
      await this.removeEvent(row);
    } catch (err) {
      this.deps.log.warn({ bookingId: row.id, err: errorMessage(err) }, 'booking\'s old event not removed from the owner\'s calendar yet; it will be retried');
      await this.calendarLater('remove', row);
    }
  }

  /** Writes a booking's event now (an owner's move), or on the jobs when the calendar cannot be reached. */
  private async writeToCalendar(row: BookingRow, serviceName: string): Promise<void> {
    try {
      await this.writeEvent(row, serviceName);
    } catch (err) {
      this.deps.log.warn({ bookingId: row.id, err: errorMessage(err) }, 'booking not written to the owner\'s calendar yet; it will be retried');
      await this.calendarLater('write', row);
    }
  }

  private async calendarLater(op: 'write' | 'remove', row: BookingRow): Promise<void> {
    const queued = await this.queue.enqueue(BOOKING_CALENDAR_JOB, `booking-calendar:${op}:${row.id}`, { op, bookingId: row.id }, { maxAttempts: CALENDAR_ATTEMPTS });
    if (queued) this.worker.kick();
  }

  /**
   * PUT with If-None-Match: * under the slot's name: a second write of the slot is refused (412),
   * so a retry after a write whose answer was lost cannot make a second event. That 412 is
   * this booking's own event here (the call's claim already treated a foreign one as taken).
   */
  private async writeEvent(row: BookingRow, serviceName: string): Promise<void> {
    const member = await this.memberOf(row);
    await bounded((s) => this.calendar.put(bookingEvent(row, serviceName, member), s), CALENDAR_BOUND_MS * 2);
  }

  private async removeEvent(row: BookingRow): Promise<void> {
    const member = await this.memberOf(row);
    const uid = eventUid(row.userId, { serviceId: row.serviceId, start: row.startAt.getTime(), staffId: member?.staffId });
    await bounded((s) => this.calendar.remove(row.userId, uid, s, member?.staffId), CALENDAR_BOUND_MS * 2);
  }

  /** The team member a booking is with, when not the owner: their calendar holds its event (issue 58). */
  private async memberOf(row: BookingRow): Promise<CalendarMember | undefined> {
    if (row.staffId === null) return undefined;
    const m = await memberById(this.db, row.userId, row.staffId);
    return m && !m.isOwner ? { staffId: m.id, name: m.name } : undefined;
  }

  /** The retried write or removal: a failure throws, and the queue tries again with its back-off. */
  private async calendarJob(op: string, bookingId: number): Promise<void> {
    const found = await bookingWithService(this.db, bookingId);
    if (!found) return;
    const { row: b, serviceName: service } = found;
    if (op === 'write') {
      // Cancelled or moved since: its event is no longer wanted.
      if (b.status === 'booked') await this.writeEvent(b, service);
      return;
    }
    // The slot booked again since (the same event name): that booking's event stays.
    if (!(await slotHeldAgain(this.db, b))) await this.removeEvent(b);
  }

  private async request(ownerId: number, note: BookingRequestNote): Promise<void> {
    await this.ownerJob(ownerId, requestText(note), `booking-request-${note.callId}`);
  }

  private async ownerJob(ownerId: number, text: string, key: string): Promise<void> {
    if (await this.queue.enqueue(BOOKING_OWNER_JOB, key, { ownerId, text }, { maxAttempts: 1 })) this.worker.kick();
  }

  /** A text to the owner at once, on the channel their summaries use; once per key (the notifications row). */
  private async tellOwner(ownerId: number, text: string, key: string): Promise<void> {
    const owner = await ownerToTell(this.db, ownerId);
    if (!owner) return;
    this.opts.ownerNews?.({ userId: ownerId, event: key, kind: 'booking', staffId: null, title: 'Bookings', body: text, url: '/dashboard/bookings', callerNumber: null });
    const plan = planNotification(owner);
    if (plan.kind !== 'send') return;
    const channel = plan.channels[0]!;
    const body = toSmsText(text);
    const notice = await recordOwnerNotice(this.db, { ownerId, channel, to: plan.to, body });
    try {
      const from = (await ownerDid(this.db, ownerId)) ?? plan.to;
      const { providerId } = await this.opts.gateway.send({ channel, to: plan.to, businessNumber: from, body, key });
      await settleOwnerNotice(this.db, notice, { status: 'sent', providerId });
    } catch (err) {
      await settleOwnerNotice(this.db, notice, { status: 'failed', error: errorMessage(err) });
      this.deps.log.warn({ userId: ownerId, err: errorMessage(err) }, 'owner not told about a booking');
    }
  }

  private textHandler(): JobHandler {
    return async (job) => {
      const what = job.payload.what as TextWhat;
      const bookingId = Number(job.payload.bookingId);
      const found = await bookingWithService(this.db, bookingId);
      if (!found) return;
      const { row: b, serviceName } = found;
      // A reminder for a booking since cancelled or moved is not sent.
      if (what === 'reminder' && (b.status !== 'booked' || b.startAt.getTime() !== Number(job.payload.start))) return;
      const from = await ownerDid(this.db, b.userId);
      if (!from) {
        this.deps.log.warn({ bookingId }, 'booking text not sent: the owner has no number to send from');
        return;
      }
      const name = await businessName(this.db, b.userId);
      // A booking with a team member names them: "your Boiler service with Tom on …".
      const member = await this.memberOf(b);
      const service = member ? `${serviceName} with ${member.name}` : serviceName;
      const body = what === 'confirm' ? confirmationText(name, service, b.startAt, this.icsLink(b.id))
        : what === 'reminder' ? reminderText(name, service, b.startAt)
          : what === 'owner-cancelled' ? ownerCancelledText(name, service, b.startAt)
            : what === 'caller-cancelled' ? callerCancelledText(name, service, b.startAt)
              : movedText(name, service, new Date(Number(job.payload.from)), b.startAt);
      const key = bookingTextKey(what, bookingId);
      try {
        await this.opts.road.send({ userId: b.userId, to: b.callerNumber, from, kind: 'booking', body, key, callId: b.callId, retry: true });
      } catch (err) {
        if (job.attempt >= job.maxAttempts) await this.opts.road.giveUp(key);
        throw err;
      }
    };
  }

  /** The owner cancels a booking (console): the caller is texted. */
  async cancelByOwner(ownerId: number, bookingId: number): Promise<BookingRow | null> {
    const row = await cancelBooking(this.db, ownerId, bookingId, 'owner', this.deps.now());
    if (row) await this.events().cancelled(row, 'owner');
    return row;
  }

  /**
   * A caller's reply "C" to a business: cancels their next live booking with it, frees the slot
   * and tells the owner. False for any other text, or when they have none (the reply is then an ordinary text).
   */
  async cancelByReply(ownerId: number, callerNumber: string, body: string): Promise<boolean> {
    if (!isCancelReply(body)) return false;
    const next = (await upcomingOfCaller(this.db, ownerId, callerNumber, this.deps.now()))[0];
    if (!next) return false;
    const row = await cancelBooking(this.db, ownerId, next.row.id, 'caller', this.deps.now());
    if (row) await this.events().cancelled(row, 'caller');
    return true;
  }

  /**
   * The owner moves a booking to another start (console), and to another person when `staffId`
   * names one who does the service (issue 58): the same claim as a caller's booking (that
   * person's rules and calendar, never double-booked), the old one cancelled in the same
   * transaction, the caller texted. 'taken' when the time is not free; 'no-person' when that
   * person is not on the team or does not do the service; 'unavailable' when the calendar cannot be read.
   */
  async moveByOwner(ownerId: number, bookingId: number, start: number, staffId?: number): Promise<{ kind: 'moved'; row: BookingRow; serviceName: string } | { kind: 'not-found' } | { kind: 'no-person' } | { kind: 'taken'; rule: RefusalRule } | { kind: 'unavailable'; reason: string }> {
    const old = await ownedBooking(this.db, ownerId, bookingId);
    if (old?.status !== 'booked') return { kind: 'not-found' };
    const stored = (await serviceById(this.db, ownerId, old.serviceId))!;
    const team = await peopleForService(this.db, ownerId, stored.id);
    const wanted = staffId ?? personOfBooking(old, team.ownerMemberId);
    // The booking's own person stays possible even if the service's people changed since it was made.
    const person = team.people.find((p) => p.staffId === wanted) ?? (staffId === undefined ? await personById(this.db, ownerId, wanted) : undefined);
    if (!person) return { kind: 'no-person' };
    const service = personService(stored, person);
    const member = person.isOwner ? undefined : person.staffId;
    let busy;
    try {
      busy = await this.calendar.busy(ownerId, start - DAY_MS, start + DAY_MS, { boundMs: CALENDAR_BOUND_MS, staffId: member });
    } catch (err) {
      return { kind: 'unavailable', reason: errorMessage(err) };
    }
    const result = await claimSlot(this.db, {
      ownerId, staffId: person.staffId, ownerMemberId: team.ownerMemberId, serviceId: service.id, durationMinutes: service.durationMinutes, bufferMinutes: service.bufferMinutes, start,
      slotKey: slotKey({ serviceId: service.id, start, staffId: member }), callId: null, callerName: old.callerName, callerNumber: old.callerNumber,
      rules: personRules(await loadRules(this.db, ownerId), person.hours), busy, now: this.deps.now().getTime(), replaces: old.id,
    });
    if (result.kind === 'taken' || result.kind === 'not-offered') return { kind: 'taken', rule: result.rule };
    if (result.kind !== 'booked') return { kind: 'taken', rule: 'overlaps-booking' };
    // The event follows the booking: the new one written (If-None-Match: *), the old one removed.
    await this.writeToCalendar(result.row, service.name);
    await this.events().moved(old, result.row, 'owner');
    return { kind: 'moved', row: result.row, serviceName: service.name };
  }

  /** The owner's bookings from the start of today (London) on, with their service's name. */
  upcoming(ownerId: number): Promise<NamedBooking[]> {
    return bookingsFrom(this.db, ownerId, new Date(londonDayStartUtc(this.deps.now().getTime())));
  }

  /** The link in a confirmation that adds the booking to the caller's calendar. */
  icsLink(bookingId: number): string {
    return new URL(`/api/booking/event/${bookingRef(this.keys.slot, bookingId)}.ics`, this.deps.config.publicUrl).toString();
  }

  /** One booking as iCalendar, for its signed link; null for a link this box did not make. */
  async bookingIcs(ref: string): Promise<string | null> {
    const id = readBookingRef(this.keys.slot, ref);
    if (id === null) return null;
    const found = await bookingWithService(this.db, id);
    if (!found) return null;
    const { row: b, serviceName: service } = found;
    const name = await businessName(this.db, b.userId);
    const member = await this.memberOf(b);
    return calendarIcs([{ uid: eventUid(b.userId, { serviceId: b.serviceId, start: b.startAt.getTime(), staffId: member?.staffId }), summary: `${service} with ${member ? `${member.name}, ` : ''}${name}`, start: b.startAt, end: b.endAt, stamp: b.createdAt, cancelled: b.status !== 'booked' }]);
  }

  /** The private feed: the owner whose token it is, and their live bookings as iCalendar; null for an unknown token. */
  async feed(token: string): Promise<string | null> {
    const ownerId = await ownerOfFeed(this.db, token);
    if (ownerId === null) return null;
    const rows = (await this.upcoming(ownerId)).filter((r) => r.row.status === 'booked');
    const name = await businessName(this.db, ownerId);
    // Each booking named with its person, when not the owner: the business sees whose diary it is in.
    const members = await membersById(this.db, ownerId);
    return calendarIcs(rows.map(({ row, serviceName }) => {
      const m = row.staffId === null ? undefined : members.get(row.staffId);
      const member = m && !m.isOwner ? m : undefined;
      return {
        uid: eventUid(row.userId, { serviceId: row.serviceId, start: row.startAt.getTime(), staffId: member?.id }), summary: `${serviceName}${member ? ` with ${member.name}` : ''}: ${row.callerName}`,
        description: `Caller: ${row.callerName}, ${row.callerNumber}.`, start: row.startAt, end: row.endAt, stamp: row.createdAt,
      };
    }), `${name} bookings`);
  }

  start(): void {
    const linkWarning = bookingLinkWarning(this.deps.config.publicUrl);
    if (linkWarning) this.deps.log.warn({ publicUrl: this.deps.config.publicUrl }, linkWarning);
    this.worker.start();
  }

  async stop(): Promise<void> {
    await this.worker.stop();
  }
}
