import { WEEKDAYS, type OpeningSpan, type Weekday } from '../../../contract/call-handling.js';
import { toMinute } from '../../call-handling/schedule.js';
import type { BookingRules } from './booking-rules.js';

// One person's booking hours (issue 58): their own working hours, when they have any, inside the
// business's booking hours. Pure. A member without hours of their own works the booking hours.

const minuteOf = (t: string) => (t === '23:59' ? 24 * 60 : toMinute(t));
const timeOf = (m: number) => (m >= 24 * 60 ? '23:59' : `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`);

/** Where two days' spans overlap, soonest first. */
export function intersectSpans(a: readonly OpeningSpan[], b: readonly OpeningSpan[]): OpeningSpan[] {
  const out: OpeningSpan[] = [];
  for (const x of a) {
    for (const y of b) {
      const open = Math.max(minuteOf(x.open), minuteOf(y.open));
      const close = Math.min(minuteOf(x.close), minuteOf(y.close));
      if (close > open) out.push({ open: timeOf(open), close: timeOf(close) });
    }
  }
  return out.sort((p, q) => minuteOf(p.open) - minuteOf(q.open));
}

/** The booking rules as they hold for one person: the same notice, horizon, cap and holidays, their hours inside the business's. */
export function personRules(rules: BookingRules, own: Record<Weekday, OpeningSpan[]> | null): BookingRules {
  if (!own) return rules;
  const hours = Object.fromEntries(WEEKDAYS.map((d) => [d, intersectSpans(rules.hours[d], own[d] ?? [])])) as Record<Weekday, OpeningSpan[]>;
  return { ...rules, hours };
}

/** A service as one person does it: their own length when they have one. */
export const personService = <S extends { durationMinutes: number }>(service: S, person: { durationMinutes: number | null }): S =>
  person.durationMinutes === null ? service : { ...service, durationMinutes: person.durationMinutes };
