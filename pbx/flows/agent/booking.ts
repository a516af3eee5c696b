import type { BookableService, BookingDeskFactory } from '../../../dialogue/agent/booking-desk.js';
import { BookingWalk, DIARY_BOUND_MS } from '../../../dialogue/agent/booking-walk.js';
import type { FlowContext } from '../types.js';

/**
 * The booking walk for one agent call (issue 41), or undefined when the owner has no bookable
 * services (or none could be read within the diary's bound): the agent then never books,
 * exactly as before bookings existed.
 */
export async function openBookingWalk(factory: BookingDeskFactory | undefined, ctx: FlowContext): Promise<BookingWalk | undefined> {
  if (!factory) return undefined;
  const { log, callId } = ctx;
  const desk = factory(ctx.owner.userId);
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), DIARY_BOUND_MS)));
  let services: BookableService[] | null;
  try {
    services = await Promise.race([desk.services(), late]);
  } catch (err) {
    log.warn({ err, callId }, 'agent: the bookable services could not be read; this call takes no bookings');
    return undefined;
  } finally {
    clearTimeout(timer);
  }
  if (services === null) log.warn({ callId, boundMs: DIARY_BOUND_MS }, 'agent: the bookable services were not read in time; this call takes no bookings');
  if (!services?.length) return undefined;
  return new BookingWalk({ desk, services, callId, callerId: ctx.session.callerNumber, log });
}
