import type { Log } from '../../contract/log.js';
import type { BookingRequestNote } from '../../dialogue/agent/booking-desk.js';
import type { Db } from '../db/client.js';
import type { BookingRow, BookingServiceRow } from '../db/schema.js';
import { DAY_MS } from '../time/london-time.js';
import { bounded, CALENDAR_BOUND_MS, CalendarUnavailable, NO_CALENDAR, OFFER_CACHE_MS, type BookingEventForCalendar, type CalendarReader, type CalendarWriter } from './calendars/calendar-gate.js';
import type { BookingKeys } from './calendars/keys.js';
import type { BookingRules } from './rules/booking-rules.js';
import { personRules, personService } from './rules/person-hours.js';
import { slotKey } from './rules/slot-id.js';
import { findSlots, slotVerdict, type Interval } from './rules/slots.js';
import { soonestAcross } from './rules/soonest.js';
import { parseWish } from './rules/wish.js';
import { asBlocked, cancelBooking, liveBookingsBetween } from './store/bookings.js';
import { claimSlot, withdrawClaim, type ClaimResult } from './store/claim.js';
import { peopleForService, personOfBooking, type BookingPerson } from './store/people.js';
import { loadRules } from './store/rules.js';
import { DepositUnavailable, type DepositDesk } from '../payments/parts.js';
import { canTextCaller } from '../caller-texts/store.js';
import { depositNeeded, depositPounds } from './rules/deposit-settings.js';

// One business's diary, shared by the agent's desk (agent-booking-adapter.ts) and the owner's
// Call Details (owner-booking.ts): free times from the slot engine over each person's hours,
// calendar and live bookings (issue 58: a business without a team has one person, the owner),
// and the claim with its calendar write and follow-ups, so the two can never book one person's
// slot twice and the caller's texts go the same way whoever booked.

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
  /** Issue 59: the owner's deposits (core/payments/deposits); absent = no deposits, bookings as before. */
  deposits?: DepositDesk;
}

/**
 * The calendar event's uid for a booking's slot: one event per slot, so a second PUT of it is
 * refused (412). A team member's slot names them (two people may be booked at one time); the
 * owner's reads as it did before the team, so their earlier events are still found.
 */
export const eventUid = (ownerId: number, ref: { serviceId: number; start: number; staffId?: number }) =>
  `booking-${ownerId}-${ref.staffId === undefined ? '' : `s${ref.staffId}-`}${ref.serviceId}-${ref.start}`;

/** A team member other than the owner, as a booking's calendar and feed name them; undefined = the owner. */
export interface CalendarMember {
  staffId: number;
  name: string;
}

/** A booking as its event in its person's calendar. */
export function bookingEvent(row: BookingRow, serviceName: string, member?: CalendarMember): BookingEventForCalendar {
  return {
    ownerId: row.userId, bookingId: row.id, uid: eventUid(row.userId, { serviceId: row.serviceId, start: row.startAt.getTime(), staffId: member?.staffId }),
    summary: `${serviceName}${member ? ` with ${member.name}` : ''}: ${row.callerName}`, start: row.startAt.getTime(), end: row.endAt.getTime(),
    description: `Booked by phone. Caller: ${row.callerName}, ${row.callerNumber}.${row.depositPence !== null && row.depositState ? ` A ${depositPounds(row.depositPence)} deposit was asked for.` : ''}`, staffId: member?.staffId,
  };
}

const memberOf = (p: BookingPerson): CalendarMember | undefined => (p.isOwner ? undefined : { staffId: p.staffId, name: p.name });

/** A free time, with the person it is with. */
export interface FreeSlot extends Interval {
  person: BookingPerson;
}

/** `named`: more than the owner does the service, so each time is said with its person. */
export type FreeTimes = { kind: 'free'; slots: FreeSlot[]; named: boolean } | { kind: 'none' } | { kind: 'unavailable'; reason: string };

/** Whether a service's times are said with their person: not in a business where the owner alone does it. */
export const namesPeople = (people: readonly BookingPerson[]): boolean => !(people.length === 1 && people[0]!.isOwner);

/** Whose diary: one member's (their id), some members' (a role asked for: the soonest across them), or everyone who does the service. */
export type Who = number | readonly number[] | 'anyone';

const whose = (who: Who) => (p: BookingPerson) => (who === 'anyone' ? true : typeof who === 'number' ? p.staffId === who : who.includes(p.staffId));

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
  /** With this member; absent, the first of the service's people free then (the owner alone without a team). */
  staffId?: number;
  /** The owner ticked "no deposit needed" (Call Details): a deposit service booked without a hold. */
  skipDeposit?: boolean;
}

/**
 * Issue 59: no booking, a request to the owner instead. 'untextable': the caller cannot be texted
 * a pay link (not a UK mobile, withheld, STOP); 'unavailable': Stripe could not make the link.
 */
export type DepositRequest = { kind: 'deposit-request'; why: 'untextable' | 'unavailable'; pence: number; reason: string };

export type DiaryClaim = ClaimResult | { kind: 'unavailable'; reason: string } | DepositRequest;

/** A claim whose asker stopped waiting: what the caller heard was already a request, never this booking. */
const GAVE_UP: DiaryClaim = { kind: 'unavailable', reason: 'the call stopped waiting for the booking' };

/** What a fresh claim asks of the deposit desk: nothing, a hold, or a request (the caller cannot get the link). */
type DepositPlan = { kind: 'none' } | { kind: 'hold'; pence: number; dueAt: Date } | DepositRequest;

export class Diary {
  readonly calendar: CalendarReader & CalendarWriter;
  private readonly boundMs: number;

  constructor(readonly deps: DiaryDeps, readonly ownerId: number) {
    this.calendar = deps.calendar ?? NO_CALENDAR;
    this.boundMs = deps.boundMs ?? CALENDAR_BOUND_MS;
  }

  /** A person's calendar over [from, to), the servers' answers within the bound; CalendarUnavailable when it cannot be read in time. */
  private async busy(person: BookingPerson, from: number, to: number, signal?: AbortSignal, maxAgeMs?: number): Promise<Interval[]> {
    try {
      return await this.calendar.busy(this.ownerId, from, to, { maxAgeMs, boundMs: this.boundMs, signal, staffId: memberOf(person)?.staffId });
    } catch (err) {
      // A calendar whose text cannot be read (bad iCalendar) is unavailable too, with the reason for the owner.
      if (err instanceof CalendarUnavailable) throw err;
      throw new CalendarUnavailable(`the calendar could not be read: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  /** The calendar around a start, re-read just before a claim: an event added since the offer blocks it. */
  async busyAround(person: BookingPerson, start: number, signal?: AbortSignal): Promise<{ kind: 'read'; busy: Interval[] } | { kind: 'unavailable'; reason: string }> {
    try {
      return { kind: 'read', busy: await this.busy(person, start - DAY_MS, start + DAY_MS, signal) };
    } catch (err) {
      if (err instanceof CalendarUnavailable) return { kind: 'unavailable', reason: err.message };
      throw err;
    }
  }

  /**
   * The soonest free starts of a service matching a wish, after `after`, at most `limit` (the slot
   * engine's 3 by default): one member's, or the soonest across everyone who does it, each with
   * its person. One person's calendar that cannot be read leaves them out while others have times.
   */
  async freeTimes(service: BookingServiceRow, wish: string, after: number | undefined, signal?: AbortSignal, limit = 3, who: Who = 'anyone'): Promise<FreeTimes> {
    const { db } = this.deps;
    const now = this.deps.now().getTime();
    const team = await peopleForService(db, this.ownerId, service.id);
    const people = team.people.filter(whose(who));
    if (!people.length) return { kind: 'none' };
    const rules = await loadRules(db, this.ownerId);
    // Whole minutes, so the offers of one call share one read of the calendar (OFFER_CACHE_MS).
    const from = Math.floor(now / 60_000) * 60_000;
    const to = from + (rules.horizonDays + 1) * DAY_MS;
    const live = await liveBookingsBetween(db, this.ownerId, now - DAY_MS, to);
    const wanted = parseWish(wish, now);
    const each = await Promise.all(people.map(async (person): Promise<FreeSlot[] | { unavailable: string }> => {
      let busy;
      try {
        busy = await this.busy(person, from, to, signal, OFFER_CACHE_MS);
      } catch (err) {
        if (err instanceof CalendarUnavailable) return { unavailable: err.message };
        throw err;
      }
      const booked = asBlocked(live.filter((b) => personOfBooking(b, team.ownerMemberId) === person.staffId));
      return findSlots({ now, rules: personRules(rules, person.hours), service: personService(service, person), busy, booked, wish: wanted, after, limit })
        .map((s) => ({ ...s, person }));
    }));
    const slots = soonestAcross(each.filter((e): e is FreeSlot[] => Array.isArray(e)), limit);
    if (slots.length) return { kind: 'free', slots, named: namesPeople(team.people) };
    const down = each.find((e): e is { unavailable: string } => !Array.isArray(e));
    return down ? { kind: 'unavailable', reason: down.unavailable } : { kind: 'none' };
  }

  /**
   * The claim, the calendar re-read around the start, and for a fresh booking its calendar event
   * and follow-ups. The local claim decides at once between callers racing for one slot: only the
   * winner waits on the calendar, and gives the booking up if the calendar now has something then
   * (or already holds an event for the slot: another box, or the owner), or cannot be read.
   * A move reads the calendar first, since the booking it replaces is cancelled in its claim.
   */
  async claim(ask: ClaimAsk, signal?: AbortSignal): Promise<DiaryClaim> {
    const plan = await this.depositPlan(ask);
    if (plan.kind === 'deposit-request') return plan;
    const team = await peopleForService(this.deps.db, this.ownerId, ask.service.id);
    const people = ask.staffId === undefined ? team.people : team.people.filter((p) => p.staffId === ask.staffId);
    // Someone who does not do the service is never free for it.
    let last: DiaryClaim = { kind: 'not-offered', rule: 'outside-hours' };
    for (const person of people) {
      const result = await this.claimWith(person, team.ownerMemberId, ask, plan, signal);
      if (result.kind !== 'taken' && result.kind !== 'not-offered') return result;
      // Of the people tried, a taken time says more than one outside someone's hours.
      if (last.kind !== 'taken') last = result;
    }
    return last;
  }

  /**
   * Whether a fresh booking waits for a deposit (issue 59): the service takes one and the owner's
   * Stripe account is connected. A move carries its booking's deposit over (claim.ts) instead.
   */
  async depositPlan(ask: Pick<ClaimAsk, 'service' | 'replaces' | 'skipDeposit' | 'callerNumber' | 'now'>): Promise<DepositPlan> {
    const { deposits } = this.deps;
    const pence = depositNeeded(ask.service);
    if (!deposits || pence === null || ask.replaces || ask.skipDeposit) return { kind: 'none' };
    if (!(await deposits.connected(this.ownerId))) return { kind: 'none' };
    if (!(await canTextCaller(this.deps.db, this.ownerId, ask.callerNumber))) {
      return { kind: 'deposit-request', why: 'untextable', pence, reason: 'the caller cannot be texted a pay link (not a UK mobile, withheld, or they replied STOP)' };
    }
    return { kind: 'hold', pence, dueAt: new Date(ask.now + ask.service.depositHoldMinutes * 60_000) };
  }

  private async claimWith(person: BookingPerson, ownerMemberId: number, ask: ClaimAsk, plan: DepositPlan, signal?: AbortSignal): Promise<DiaryClaim> {
    const { db } = this.deps;
    const { start } = ask;
    const service = personService(ask.service, person);
    const rules = personRules(ask.rules, person.hours);
    const member = memberOf(person);
    let busy: Interval[] = [];
    if (ask.replaces) {
      const around = await this.busyAround(person, start, signal);
      if (around.kind === 'unavailable') return around;
      busy = around.busy;
    }
    const result = await claimSlot(db, {
      ownerId: this.ownerId, staffId: person.staffId, ownerMemberId, serviceId: service.id, durationMinutes: service.durationMinutes, bufferMinutes: service.bufferMinutes,
      start, slotKey: slotKey({ serviceId: service.id, start, staffId: member?.staffId }), callId: ask.callId, callerName: ask.callerName, callerNumber: ask.callerNumber,
      rules, busy, now: ask.now, replaces: ask.replaces?.id, onePerCall: ask.onePerCall,
      ...(plan.kind === 'hold' && { deposit: { pence: plan.pence, dueAt: plan.dueAt } }),
    });
    if (result.kind !== 'booked' || !result.fresh) return result;
    if (!ask.replaces) {
      const around = await this.busyAround(person, start, signal);
      const refused = around.kind === 'unavailable' ? around : slotVerdict({ now: ask.now, rules, service, busy: around.busy, booked: [] }, start) === 'free' ? null : { kind: 'taken' as const, rule: 'calendar-busy' as const };
      if (refused) {
        await withdrawClaim(db, this.ownerId, result.row.id);
        return refused;
      }
      // The asker gave up meanwhile (the agent's bound passed, or the caller hung up): the caller
      // was told no booking was made, so none stands; nobody was told of this one yet.
      if (signal?.aborted) {
        await withdrawClaim(db, this.ownerId, result.row.id);
        return GAVE_UP;
      }
    }
    // The pay link before the calendar event: a link that cannot be made leaves nothing to undo but the claim.
    const held = plan.kind === 'hold' && !ask.replaces;
    if (held) {
      const hold = await this.startHold(result.row, plan.pence, signal);
      if (hold.kind === 'deposit-request') return hold;
      // The desk alone decides whether a given-up hold goes (DepositDesk.startHold): a link already
      // texted is never released here, even when the signal has aborted since.
      if (!hold.stands) return this.releaseGivenUp(result.row, ask.now);
    }
    if ((await this.writeToCalendar(result.row, service, member, signal)) === 'taken') {
      await cancelBooking(db, this.ownerId, result.row.id, 'moved', new Date(ask.now));
      if (held) await this.after(() => this.deps.deposits?.cancelled(result.row.id, 'owner'), result.row.id);
      return { kind: 'taken', rule: 'calendar-busy' };
    }
    const { replaces } = ask;
    if (replaces) await this.after(() => this.deps.events?.moved?.(replaces, result.row, 'caller'), result.row.id);
    // A held booking's confirmation waits for the payment (core/payments/deposits sends it).
    else if (!held) await this.after(() => this.deps.events?.booked?.(result.row, service), result.row.id);
    return result;
  }

  /**
   * The Try-it preview of a claim: the person it would be with, from the calendar read now and the
   * live bookings, as the claim would decide it; nothing written.
   */
  async wouldBook(ask: Pick<ClaimAsk, 'service' | 'rules' | 'start' | 'now' | 'replaces' | 'staffId'>, signal?: AbortSignal): Promise<{ kind: 'free'; person: BookingPerson; named: boolean } | { kind: 'taken' } | { kind: 'unavailable'; reason: string }> {
    const team = await peopleForService(this.deps.db, this.ownerId, ask.service.id);
    const people = ask.staffId === undefined ? team.people : team.people.filter((p) => p.staffId === ask.staffId);
    const live = (await liveBookingsBetween(this.deps.db, this.ownerId, ask.start - 2 * DAY_MS, ask.start + 2 * DAY_MS)).filter((b) => b.id !== ask.replaces?.id);
    let down: { kind: 'unavailable'; reason: string } | undefined;
    for (const person of people) {
      const around = await this.busyAround(person, ask.start, signal);
      if (around.kind === 'unavailable') {
        down ??= around;
        continue;
      }
      const booked = asBlocked(live.filter((b) => personOfBooking(b, team.ownerMemberId) === person.staffId));
      const q = { now: ask.now, rules: personRules(ask.rules, person.hours), service: personService(ask.service, person), busy: around.busy, booked };
      if (slotVerdict(q, ask.start) === 'free') return { kind: 'free', person, named: namesPeople(team.people) };
    }
    return down ?? { kind: 'taken' };
  }

  /**
   * Asks the deposit desk for the Checkout Session and the pay-link text. Stripe unreachable or
   * refusing (or anything else going wrong there) releases the slot, which nobody was told of
   * yet: the caller's booking becomes a request to the owner, as when the calendar is down.
   */
  private async startHold(row: BookingRow, pence: number, signal?: AbortSignal): Promise<DepositRequest | { kind: 'started'; stands: boolean }> {
    try {
      const { stands } = await this.deps.deposits!.startHold(row.id, signal);
      return { kind: 'started', stands };
    } catch (err) {
      const reason = err instanceof DepositUnavailable ? err.reason : err instanceof Error ? err.message : String(err);
      this.deps.log.warn({ bookingId: row.id, err: reason }, 'deposit hold not started; the booking is left to the owner as a request');
      await withdrawClaim(this.deps.db, this.ownerId, row.id);
      return { kind: 'deposit-request', why: 'unavailable', pence, reason };
    }
  }

  /**
   * A hold whose asker gave up before the desk texted the link (the desk said it does not stand): released
   * unpaid, so the slot frees, and its session expired at Stripe on the desk's cancel path (a
   * Stripe failure there is retried by the deposit sweep).
   */
  private async releaseGivenUp(row: BookingRow, now: number): Promise<DiaryClaim> {
    this.deps.log.info({ bookingId: row.id }, 'deposit hold released: the call stopped waiting while the pay link was made');
    if (await cancelBooking(this.deps.db, this.ownerId, row.id, 'unpaid', new Date(now))) await this.after(() => this.deps.deposits?.cancelled(row.id, 'owner'), row.id);
    return GAVE_UP;
  }

  /** CalDAV: the booking as one event named after its slot, written once (If-None-Match: *). */
  private async writeToCalendar(row: BookingRow, service: BookingServiceRow, member: CalendarMember | undefined, signal?: AbortSignal): Promise<'written' | 'taken' | 'no-calendar' | 'failed'> {
    try {
      return await bounded((s) => this.calendar.put(bookingEvent(row, service.name, member), s), this.boundMs * 2, signal);
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
