import { toE164 } from '../../contract/phone.js';
import type { Log } from '../../contract/log.js';
import type { BookablePerson, BookableService, BookingDesk, BookingRequestNote, BookingSummary, BookResult, DiaryUnavailable, OfferedSlot } from './booking-desk.js';
import { bookingSpeech, bookingWords, readBack, type BookingSpeech } from '../language/booking-lines.js';
import type { LanguageCode } from '../language/languages.js';
import type { BookingChoice } from './agent-reply.js';
import { personAskedFor, roleAskedFor } from './person-asked.js';
import { offersCardOnPhone } from './card-guard.js';

// A booking, turn by turn (issue 41), shared by the phone (pbx/flows/agent) and the console's
// Try-it (core/agent-preview, with a preview desk that writes nothing).
//
// The model never says a time: it is shown the step in progress with short ids ("s1", "s2",
// "s3") and answers with one of them; this module maps the id to the desk's own slot id, so an
// id it was not shown is never booked. Every date and time spoken is the desk's. Each desk call
// is bounded: a diary slower than that, or down, becomes a booking request for the owner.

/** How long the diary may take to answer before the caller is told the owner will confirm (issue 41: 1.5 s). */
export const DIARY_BOUND_MS = 1500;
/** Offers a caller may turn down ("something later?") before the owner is asked to confirm a time. */
export const MAX_OFFER_ROUNDS = 3;

export interface BookingWalkDeps {
  desk: BookingDesk;
  /** The owner's bookable services (at least one: without any, the agent does not book). */
  services: BookableService[];
  callId: number;
  /** The caller id as the line gave it; withheld or unreadable means the caller is asked. */
  callerId: string | null | undefined;
  boundMs?: number;
  log?: Log;
}

/** What a booking turn comes to. */
export interface BookingTurn {
  /** Said to the caller, in order. */
  say: string[];
  /** The walk is over this turn. */
  ended?: 'booked' | 'moved' | 'cancelled' | 'kept' | 'request';
  /** A booking request was left: the caller's next turn is their message for the owner. */
  takeMessage?: boolean;
}

/** Who the booking is for, as far as the walk has got. */
interface Party {
  wish: string;
  serviceId?: number;
  /** A live booking of this caller being moved. */
  moving?: BookingSummary;
  name?: string;
  /** E.164. */
  number?: string;
  /** The person the caller asked to be booked in with (issue 58); absent, anyone who does the service. */
  staffId?: number;
  /** The people of the role the caller asked for ("a stylist"): the soonest across them. */
  staffIds?: number[];
}

/** Whom the offers are with: a person, the people of a role, or anyone (neither); `noRole` a role asked for that nobody doing the service has. */
type With = Pick<Party, 'staffId' | 'staffIds'> & { noRole?: string };

type Step =
  | ({ at: 'service' } & Party)
  | ({ at: 'choose'; offered: OfferedSlot[]; rounds: number } & Party)
  | ({ at: 'name' | 'number' | 'confirm'; slot: OfferedSlot; rounds: number } & Party)
  | ({ at: 'manage'; existing: BookingSummary } & Party);

/** A time is chosen; the name, the number and the caller's yes are still to come. */
type Filling = Extract<Step, { slot: OfferedSlot }>;

/** The id the model is shown for the n-th offered item (0-based): "s1", "s2", "s3". */
const slotKey = (i: number) => `s${i + 1}`;
const serviceKey = (i: number) => `v${i + 1}`;

export class BookingWalk {
  private step: Step | null = null;
  private readonly boundMs: number;
  private readonly callerId: string | null;
  /** Who does each service, asked of the desk once per service in a walk. */
  private readonly people = new Map<number | undefined, BookablePerson[]>();
  /** The team's role words, asked of the desk once in a walk. */
  private roleWords: string[] | undefined;
  /** A deposit was asked for in this walk (issue 59): a caller offering a card is told the link is the only way. */
  private depositAsked = false;
  /** The caller's language this turn (the model's step prompt stays English: it is instructions, not speech). */
  private speech: BookingSpeech = bookingSpeech('en');

  constructor(private readonly deps: BookingWalkDeps) {
    this.boundMs = deps.boundMs ?? DIARY_BOUND_MS;
    this.callerId = toE164(deps.callerId ?? null);
  }

  /** A booking is under way: the model is shown its step, and "book" replies carry it on. */
  get active(): boolean {
    return this.step !== null;
  }

  /** Where the walk is (tests and logs). */
  get at(): Step['at'] | null {
    return this.step?.at ?? null;
  }

  /** The caller went on to something else (a message, a person): the booking is dropped. */
  abandon(): void {
    this.step = null;
  }

  /** The step as the model must read it, with the only ids it may answer with; null between bookings. */
  promptStep(): string | null {
    const s = this.step;
    if (!s) return null;
    switch (s.at) {
      case 'service':
        return `You asked which service the caller wants: ${this.deps.services.map((v, i) => `${serviceKey(i)} = ${v.name}`).join('; ')}. Set intent to "book" and "choice" to the id of the service they named, or "none" if they want none of them.`;
      case 'choose':
        return [
          `You offered these times: ${s.offered.map((o, i) => `${slotKey(i)} = ${o.spoken}`).join('; ')}.`,
          `Set intent to "book" and "choice" to the id of the time the caller took (${s.offered.map((_, i) => `"${slotKey(i)}"`).join(', ')}),`,
          '"other" if they would like a different time (say nothing about times yourself: the system finds them), or "none" if they do not want any time.',
        ].join(' ');
      case 'name':
        return 'You asked for the caller\'s name. Set intent to "book" and "name" to the name they said.';
      case 'number':
        return 'You asked for a number to call them back on. Set intent to "book" and "number" to the digits they said.';
      case 'confirm':
        return `You read the booking back: ${readBack(s.slot, s.name!, s.number!)} Set intent to "book" and "yes" to true if the caller agreed, or false if they did not.`;
      case 'manage':
        return `The caller already has a booking: ${bookingWords(s.existing)}. You asked whether to keep, move or cancel it. Set intent to "book" and "choice" to "keep", "move" or "cancel", or "new" if they want another booking as well.`;
    }
  }

  /**
   * One caller turn the model read as "book": starts a booking, or carries the one under way a
   * step further. `callerText` is what the caller said (their wish, when a booking starts);
   * what the caller hears is in `language`, the one the agent answers in now.
   */
  async turn(choice: BookingChoice | undefined, callerText: string, signal?: AbortSignal, language: LanguageCode = 'en'): Promise<BookingTurn> {
    this.speech = bookingSpeech(language);
    const s = this.step;
    // Card details are never taken on the phone (issue 59): the step stays where it was.
    if (this.depositAsked && offersCardOnPhone(callerText)) return { say: [this.speech.deposit.cardLinkOnly] };
    if (!s) return this.start(callerText, signal);
    switch (s.at) {
      case 'service':
        return this.chooseService(s, choice);
      case 'choose':
        return this.chooseTime(s, choice, callerText, signal);
      case 'name':
        return this.fill({ ...s, name: choice?.name ?? s.name });
      case 'number': {
        const number = toE164(choice?.number ?? callerText.replace(/[^\d+]/g, ''));
        if (!number) return { say: [this.speech.lines.badNumber] };
        return this.fill({ ...s, number });
      }
      case 'confirm':
        if (choice?.yes === true) return this.book(s, signal);
        if (choice?.yes === false) return this.offer(party(s), s.rounds + 1, undefined, [this.speech.lines.startAgain], signal, callerText || s.wish);
        return { say: [this.speech.readBack(s.slot, s.name!, s.number!)] };
      case 'manage':
        return this.manage(s, choice, callerText, signal);
    }
  }

  // ------------------------------------------------------------------ steps

  private async start(wish: string, signal?: AbortSignal): Promise<BookingTurn> {
    const base: Party = { wish, ...(this.callerId ? { number: this.callerId } : {}) };
    if (this.callerId) {
      const mine = await this.ask(() => this.deps.desk.findByCaller(this.callerId!), signal);
      if (isUnavailable(mine)) return this.request(base, 'diary-unavailable', mine.reason);
      const existing = mine[0];
      if (existing) {
        this.step = { at: 'manage', ...base, existing, name: existing.callerName };
        return { say: [this.speech.existingBooking(existing)] };
      }
    }
    return this.begin(base, signal);
  }

  /** Which service, when the owner has several; then the first offer. */
  private begin(p: Party, signal?: AbortSignal): Promise<BookingTurn> | BookingTurn {
    if (this.deps.services.length > 1 && p.serviceId === undefined) {
      this.step = { at: 'service', ...p };
      return { say: [this.speech.whichService(this.deps.services)] };
    }
    return this.offer({ ...p, serviceId: p.serviceId ?? this.deps.services[0]?.id }, 0, undefined, [], signal);
  }

  private chooseService(s: Extract<Step, { at: 'service' }>, choice: BookingChoice | undefined): Promise<BookingTurn> | BookingTurn {
    if (choice?.choice === 'none') return this.request(s, 'no-suitable-time', 'the caller wanted none of the services');
    const i = this.deps.services.findIndex((_, n) => serviceKey(n) === choice?.choice);
    if (i < 0) return { say: [this.speech.whichService(this.deps.services)] };
    return this.begin({ ...party(s), serviceId: this.deps.services[i]!.id });
  }

  private async chooseTime(s: Extract<Step, { at: 'choose' }>, choice: BookingChoice | undefined, callerText: string, signal?: AbortSignal): Promise<BookingTurn> {
    const c = choice?.choice;
    // The owner reads everything the caller asked for; the desk is asked with their latest words.
    const p = { ...party(s), wish: [s.wish, callerText].filter(Boolean).join(' ') };
    if (c === 'none') return this.request(p, 'no-suitable-time', 'the caller took none of the offered times');
    if (c === 'other') {
      if (s.rounds + 1 >= MAX_OFFER_ROUNDS) return this.request(p, 'no-suitable-time', 'the caller took none of the offered times');
      // After the latest time already offered: the caller has heard everything before it.
      const after = new Date(Math.max(...s.offered.map((o) => o.start.getTime())));
      return this.offer(p, s.rounds + 1, after, [], signal, callerText || s.wish);
    }
    // Only an id it was shown maps to a slot; anything else (an invented id, a time) is asked again.
    const i = s.offered.findIndex((_, n) => slotKey(n) === c);
    if (i < 0) return { say: [this.speech.lines.whichTime, this.speech.offerTimes(s.offered)] };
    return this.fill({ ...party(s), at: 'name', slot: s.offered[i]!, rounds: s.rounds, name: choice?.name ?? s.name });
  }

  /** Asks for what is still missing (name, then a number for a withheld caller), then reads the booking back. */
  private fill(s: Filling): BookingTurn {
    if (!s.name) {
      this.step = { ...s, at: 'name' };
      return { say: [this.speech.lines.askName] };
    }
    if (!s.number) {
      this.step = { ...s, at: 'number' };
      return { say: [this.speech.lines.askNumber] };
    }
    this.step = { ...s, at: 'confirm' };
    return { say: [this.speech.readBack(s.slot, s.name, s.number)] };
  }

  private async book(s: Filling, signal?: AbortSignal): Promise<BookingTurn> {
    const req = { slotId: s.slot.id, callId: this.deps.callId, callerName: s.name!, callerNumber: s.number! };
    const moving = s.moving;
    const result = await this.ask<BookResult>((sig) => (moving ? this.deps.desk.move(moving.id, req, sig) : this.deps.desk.book(req, sig)), signal);
    if (isUnavailable(result)) return this.request(s, 'diary-unavailable', result.reason);
    switch (result.kind) {
      case 'booked': {
        this.step = null;
        const { deposit } = result.booking;
        if (deposit && !moving) {
          this.depositAsked = true;
          return { say: [this.speech.deposit.held(deposit.pence, deposit.holdMinutes), this.speech.deposit.anythingElse], ended: 'booked' };
        }
        return { say: [moving ? this.speech.moved(result.booking) : this.speech.booked(result.booking)], ended: moving ? 'moved' : 'booked' };
      }
      case 'deposit-request': {
        // Nothing is held: the owner is asked to confirm the time offered, with its service and deposit.
        this.depositAsked = true;
        const wish = `${s.slot.serviceName}, ${s.slot.spoken}${s.slot.staffName ? ` with ${s.slot.staffName}` : ''} (asked: "${s.wish}")`;
        const said = result.why === 'deposit-untextable' ? this.speech.deposit.untextable(result.depositPence) : this.speech.deposit.unavailable;
        return this.request({ ...s, wish }, result.why, result.reason, [said], { depositPence: result.depositPence, reason: result.reason }, false);
      }
      case 'taken':
        if (result.next.length === 0) return this.request(s, 'no-suitable-time', 'the time was taken and nothing else is free');
        this.step = { ...party(s), at: 'choose', offered: result.next.slice(0, 3), rounds: s.rounds };
        return { say: [this.speech.lines.taken, this.speech.offerTimes(result.next)] };
      case 'unknown-slot':
        // The desk no longer knows the id (expired): offer afresh rather than guess.
        return this.offer(party(s), s.rounds, undefined, [this.speech.lines.taken], signal);
    }
  }

  private async manage(s: Extract<Step, { at: 'manage' }>, choice: BookingChoice | undefined, callerText: string, signal?: AbortSignal): Promise<BookingTurn> {
    switch (choice?.choice) {
      case 'cancel': {
        const done = await this.ask(() => this.deps.desk.cancelByCaller(s.existing.id, this.callerId!), signal);
        if (isUnavailable(done)) return this.request(s, 'diary-unavailable', done.reason);
        this.step = null;
        return { say: [this.speech.cancelled(done ?? s.existing)], ended: 'cancelled' };
      }
      case 'move':
        return this.begin({ ...party(s), wish: callerText || s.wish, moving: s.existing }, signal);
      case 'new':
        return this.begin({ ...party(s), wish: callerText || s.wish }, signal);
      case 'keep':
        this.step = null;
        return { say: [this.speech.kept(s.existing)], ended: 'kept' };
      default:
        return { say: [this.speech.existingBooking(s.existing)] };
    }
  }

  /**
   * Whom the caller's latest words ask for: a person by name, else the people of a role ("a
   * stylist"); else whom they asked for before; neither is anyone. A desk that cannot say who
   * does the service leaves it to anyone.
   */
  private async personIn(p: Party, words: string, signal?: AbortSignal): Promise<With> {
    const before: With = { ...(p.staffId !== undefined && { staffId: p.staffId }), ...(p.staffIds && { staffIds: p.staffIds }) };
    let people = this.people.get(p.serviceId);
    if (!people) {
      const found = await this.ask(() => this.deps.desk.people(p.serviceId), signal);
      if (isUnavailable(found)) return before;
      this.people.set(p.serviceId, (people = found));
    }
    const person = personAskedFor(words, people);
    if (person) return { staffId: person.id };
    if (this.roleWords === undefined) {
      // Without the team's words, the roles of the service's own people still count.
      const found = await this.ask(() => this.deps.desk.roleWords(), signal);
      this.roleWords = isUnavailable(found) ? [] : found;
    }
    const role = roleAskedFor(words, people, this.roleWords);
    if (!role) return before;
    return role.people.length ? { staffIds: role.people.map((x) => x.id) } : { noRole: role.roleWord };
  }

  /** Asks the desk for times and offers at most three, soonest first: with the person asked for, or the soonest across everyone. */
  private async offer(asked: Party, rounds: number, after: Date | undefined, before: string[], signal?: AbortSignal, wish = asked.wish): Promise<BookingTurn> {
    const { noRole, ...whom } = await this.personIn(asked, wish, signal);
    const p: Party = { ...asked, staffId: whom.staffId, staffIds: whom.staffIds };
    // Said before the times with anyone that follow; the walk goes on with anyone.
    if (noRole !== undefined) before = [...before, this.speech.noRole(noRole)];
    const result = await this.ask((sig) => this.deps.desk.offer({ ...(p.serviceId !== undefined && { serviceId: p.serviceId }), wish, ...(after && { after }), ...whom }, sig), signal);
    if (isUnavailable(result)) return this.request(p, 'diary-unavailable', result.reason, before);
    if (result.kind === 'none' || result.slots.length === 0) return this.request(p, 'no-suitable-time', 'nothing free matches what the caller asked for', [...before, this.speech.lines.nothingFree]);
    const offered = result.slots.slice(0, 3);
    this.step = { ...p, at: 'choose', offered, rounds };
    return { say: [...before, this.speech.offerTimes(offered)] };
  }

  /** Leaves a booking request for the owner (told at once); the caller then leaves their message. */
  private async request(p: Party, why: BookingRequestNote['why'], reason: string, before: string[] = [], extra: Pick<BookingRequestNote, 'depositPence' | 'reason'> = {}, askTime = true): Promise<BookingTurn> {
    this.step = null;
    this.deps.log?.info({ callId: this.deps.callId, why, reason }, 'agent: booking request left for the owner');
    const note: BookingRequestNote = { callId: this.deps.callId, callerName: p.name ?? '', callerNumber: p.number ?? '', wish: p.wish, why, ...extra };
    // The caller hears the same either way; a request that could not be stored is still in the call's record and transcript.
    const left = await this.ask(() => this.deps.desk.leaveRequest(note).then(() => true), undefined);
    if (isUnavailable(left)) this.deps.log?.warn({ callId: this.deps.callId, reason: left.reason }, 'agent: the booking request could not be stored; it is in the call record');
    // A deposit request already said the business will confirm: only the message is asked for.
    return { say: [...before, ...(askTime ? [this.speech.lines.request] : []), this.speech.lines.requestDetails], ended: 'request', takeMessage: true };
  }

  /**
   * One desk call, bounded: slower than the bound, or failing, is "unavailable" (the desk's
   * own answer too). A hang-up (`signal`) aborts the call and throws.
   */
  private async ask<T>(work: (signal: AbortSignal) => Promise<T>, signal: AbortSignal | undefined): Promise<T | DiaryUnavailable> {
    const ac = new AbortController();
    const onAbort = () => ac.abort(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<DiaryUnavailable>((resolve) => {
      timer = setTimeout(() => {
        ac.abort(new Error('the diary is slower than its bound'));
        resolve({ kind: 'unavailable', reason: `no answer within ${this.boundMs} ms` });
      }, this.boundMs);
    });
    try {
      return await Promise.race([
        work(ac.signal).catch((err: unknown): DiaryUnavailable => {
          if (signal?.aborted) throw err;
          return { kind: 'unavailable', reason: (err as Error).message };
        }),
        late,
      ]);
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      if (signal?.aborted) throw signal.reason;
    }
  }
}

function party(s: Step): Party {
  return { wish: s.wish, serviceId: s.serviceId, moving: s.moving, name: s.name, number: s.number, staffId: s.staffId, staffIds: s.staffIds };
}

function isUnavailable(v: unknown): v is DiaryUnavailable {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && (v as { kind?: unknown }).kind === 'unavailable';
}
