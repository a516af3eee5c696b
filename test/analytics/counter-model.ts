// The analytics counters' model, shared by the property tests on SQLite
// (consistency.test.ts) and PostgreSQL (pg-counters.test.ts): a seeded PRNG, London days and
// hours from the platform's time-zone database (Intl, not the SQL rule), each call's counter
// figures, their brute-force regrouping, and call times that crowd the clock changes.
import type { Call } from '../../core/db/schema.js';

/** Small deterministic PRNG (mulberry32). */
export function rng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  return { next, int, pick: <T>(xs: readonly T[]): T => xs[int(xs.length)]! };
}

const londonParts = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'Europe/London',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  hourCycle: 'h23',
});
const londonCache = new Map<number, { date: string; hour: number }>();
/** London calendar date (YYYY-MM-DD) and hour of day of an instant, per the time-zone database. */
export function london(t: number): { date: string; hour: number } {
  let v = londonCache.get(t);
  if (!v) {
    const p = Object.fromEntries(londonParts.formatToParts(new Date(t)).map((x) => [x.type, x.value]));
    v = { date: `${p.year}-${p.month}-${p.day}`, hour: Number(p.hour) };
    londonCache.set(t, v);
  }
  return v;
}
export const dayNumber = (date: string) => Date.parse(`${date}T00:00:00Z`) / 86_400_000;
export const counters = (c: Call) => ({
  calls: 1,
  missed: Number(c.status === 'missed'),
  answered: Number(c.status === 'answered'),
  voicemail: Number(c.status === 'voicemail'),
  durationSum: c.duration,
  notified: Number(c.notificationSent),
  notifyOutcomes: Number(c.notificationSent || c.notificationError !== null),
  transcribed: Number(c.transcriptionStatus === 'done'),
  transcribeOutcomes: Number(c.transcriptionStatus === 'done' || c.transcriptionStatus === 'failed'),
  urgent: Number(c.urgency === 'urgent'),
  normal: Number(c.urgency === 'normal'),
  low: Number(c.urgency === 'low'),
});
export type Counters = ReturnType<typeof counters>;
export const add = (a: Counters | undefined, b: Counters): Counters =>
  a ? (Object.fromEntries(Object.entries(a).map(([k, v]) => [k, v + b[k as keyof Counters]])) as Counters) : b;

/** Counter rows keyed by "user/day/hour" (call_stats) or "user/hour" (call_hour_stats); all-zero rows dropped. */
export function bruteForceCounters(rows: Call[]) {
  const byDayHour = new Map<string, Counters>();
  const byHour = new Map<string, Counters>();
  for (const c of rows) {
    const { date, hour } = london(c.createdAt.getTime());
    const k1 = `${c.userId}/${dayNumber(date)}/${hour}`;
    const k2 = `${c.userId}/${hour}`;
    byDayHour.set(k1, add(byDayHour.get(k1), counters(c)));
    byHour.set(k2, add(byHour.get(k2), counters(c)));
  }
  return { byDayHour, byHour };
}

export const NOWS = ['2026-10-31T12:00:00Z', '2026-03-31T23:30:00Z', '2026-11-01T00:30:00Z', '2025-10-26T00:30:00Z', '2026-03-29T00:59:00Z'].map((s) => new Date(s));
const D = 86_400_000;
// The clock changes, month and day ends and the NOWS: where an off-by-an-hour shows.
const CLOCK_CHANGES = ['2025-03-30T01:00:00Z', '2025-10-26T01:00:00Z', '2026-03-29T01:00:00Z', '2026-10-25T01:00:00Z'].map(Date.parse);
const ANCHORS = [
  '2026-09-30T23:00:00Z',
  '2026-10-31T23:00:00Z',
  '2026-10-31T00:00:00Z',
  '2026-03-31T23:00:00Z',
  '2026-02-28T23:59:00Z',
  ...NOWS.map((d) => d.toISOString()),
].map(Date.parse);
export function randomTime(r: ReturnType<typeof rng>): number {
  const roll = r.next();
  if (roll < 0.2) return Date.parse('2024-11-01T00:00:00Z') + r.int(2 * 365 * D); // anywhere in two years
  // Whole quarter hours within 3 hours (often) or 3 days of an edge, sometimes ±1 ms so the
  // exact instant of a change is hit and missed.
  const edge = r.next() < 0.5 ? r.pick(CLOCK_CHANGES) : r.pick(ANCHORS);
  const quarters = roll < 0.6 ? r.int(24) - 12 : r.int(4 * 24 * 6) - 4 * 24 * 3;
  return edge + quarters * 900_000 + (r.next() < 0.3 ? r.int(3) - 1 : 0);
}

