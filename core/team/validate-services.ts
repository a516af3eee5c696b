import { NO_SERVICE } from '../../contract/schemas/booking.js';
import { TEAM_MESSAGES } from '../../contract/schemas/team.js';
import { TEAM_LIMITS } from '../../contract/rules.js';
import type { Invalid } from '../call-handling/validate.js';

/** One service a member does, with their own length (null = the service's). */
export interface MemberService {
  serviceId: number;
  durationMinutes: number | null;
}

const L = TEAM_LIMITS.serviceMinutes;

/**
 * The whole list of what a member does (pure): each of the business's bookable services at most
 * once (an unknown or archived one is refused with booking's sentence), a length of 5–480 min or
 * null.
 */
export function validateMemberServices(input: readonly MemberService[], bookable: ReadonlySet<number>): MemberService[] | Invalid {
  const seen = new Set<number>();
  for (const [i, s] of input.entries()) {
    const field = `services.${i}`;
    if (!bookable.has(s.serviceId)) return { field, message: NO_SERVICE };
    if (seen.has(s.serviceId)) return { field, message: 'List each service once for a person.' };
    seen.add(s.serviceId);
    const d = s.durationMinutes;
    if (d !== null && (!Number.isInteger(d) || d < L.min || d > L.max)) {
      return { field, message: TEAM_MESSAGES.serviceLength };
    }
  }
  return input.map((s) => ({ serviceId: s.serviceId, durationMinutes: s.durationMinutes }));
}
