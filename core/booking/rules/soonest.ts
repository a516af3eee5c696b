import type { Interval } from './slots.js';

/**
 * "Anyone" (issue 58): the soonest free times across everyone who does a service, each time once,
 * with the first person in the owner's order free then. `perPerson` is in that order, each list
 * soonest first. Pure.
 */
export function soonestAcross<S extends Interval>(perPerson: readonly (readonly S[])[], limit: number): S[] {
  const seen = new Set<number>();
  const out: S[] = [];
  // A stable sort keeps the owner's order among people free at one start.
  for (const slot of perPerson.flat().sort((a, b) => a.start - b.start)) {
    if (seen.has(slot.start)) continue;
    seen.add(slot.start);
    out.push(slot);
    if (out.length >= limit) break;
  }
  return out;
}
