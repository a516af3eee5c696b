import type { BookingRow } from '../db/schema.js';
import { Diary, type DepositRequest, type DiaryDeps, type FreeTimes } from './diary.js';
import { peopleForService } from './store/people.js';
import { loadRules } from './store/rules.js';
import { activeService, serviceById } from './store/services.js';

// The owner booking a caller from Call Details (issue 41, item 8): free times from the same
// slot engine as the agent's, more at once, and a booking through the same claim, calendar
// write and confirmation text, one per call. The owner names a time directly: no slot id is
// signed for them, since it is their own diary.

/** 'no-person': the staffId asked for is not a current member doing the service. */
type OwnerFreeTimes = FreeTimes | { kind: 'no-service' } | { kind: 'no-person' };

type OwnerBookResult =
  | { kind: 'booked'; row: BookingRow; serviceName: string }
  /** No such service for this owner (or it was archived). */
  | { kind: 'no-service' }
  | { kind: 'no-person' }
  /** The time is not one the slot engine would ever offer (hours, notice, horizon, off the grid, a bank holiday): a 400. */
  | { kind: 'not-offered' }
  /** Booked by someone else first, or the owner's calendar has something then: a 409. */
  | { kind: 'taken' }
  /** The call already has a live booking (made by the agent, or by the owner a moment ago). */
  | { kind: 'call-booked'; serviceName: string; start: Date }
  | { kind: 'unavailable'; reason: string }
  /** Issue 59: the service takes a deposit and the caller cannot be texted its link, or Stripe could not make one: nothing booked. */
  | DepositRequest;

interface CallBooking {
  callId: number;
  serviceId: number;
  start: number;
  callerName: string;
  /** E.164: the route refuses a withheld caller. */
  callerNumber: string;
  /** With this team member; absent, the first who does the service and is free then. */
  staffId?: number;
  /** The owner ticked "no deposit needed": no hold for a deposit service. */
  skipDeposit?: boolean;
}

export interface OwnerBooking {
  /** One member's free times (`staffId`), or the soonest across everyone who does the service. */
  freeTimes(serviceId: number, after: number | undefined, limit: number, signal?: AbortSignal, staffId?: number): Promise<OwnerFreeTimes>;
  bookForCall(req: CallBooking, signal?: AbortSignal): Promise<OwnerBookResult>;
}

export function createOwnerBookingFactory(deps: DiaryDeps): (ownerId: number) => OwnerBooking {
  return (ownerId) => {
    const diary = new Diary(deps, ownerId);
    const { db } = deps;
    /** Anyone (no staffId), or a current member who does the service. */
    const doesIt = async (serviceId: number, staffId: number | undefined) =>
      staffId === undefined || (await peopleForService(db, ownerId, serviceId)).people.some((p) => p.staffId === staffId);
    return {
      async freeTimes(serviceId, after, limit, signal, staffId) {
        const service = await activeService(db, ownerId, serviceId);
        if (!service) return { kind: 'no-service' };
        if (!(await doesIt(service.id, staffId))) return { kind: 'no-person' };
        return diary.freeTimes(service, '', after, signal, limit, staffId ?? 'anyone');
      },
      async bookForCall(req, signal) {
        const service = await activeService(db, ownerId, req.serviceId);
        if (!service) return { kind: 'no-service' };
        if (!(await doesIt(service.id, req.staffId))) return { kind: 'no-person' };
        const rules = await loadRules(db, ownerId);
        const result = await diary.claim({ ...req, service, rules, now: deps.now().getTime(), onePerCall: true }, signal);
        if (result.kind === 'booked') return { kind: 'booked', row: result.row, serviceName: service.name };
        if (result.kind !== 'call-booked') return result;
        const held = await serviceById(db, ownerId, result.row.serviceId);
        return { kind: 'call-booked', serviceName: held?.name ?? service.name, start: result.row.startAt };
      },
    };
  };
}
