// Booking with a person (issue 58): "anyone" → the soonest free times across 20 people who do
// the service, each with 2,000 events in their own calendar (in memory, so the figure is the
// box's own work: the reads, the per-person slot search and the merge) and 100 live bookings
// each seeded as rows; beside it, in the same run, one person's offer as the reference.
// Prints figures; asserts nothing. Run: npx tsx bench/anyone-free-times.ts
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createDeskFactory } from '../core/booking/agent-booking-adapter.js';
import type { CalendarReader, CalendarWriter } from '../core/booking/calendars/calendar-gate.js';
import { keysFromSecret } from '../core/booking/calendars/keys.js';
import type { Interval } from '../core/booking/rules/slots.js';
import { openDatabase } from '../core/db/client.js';
import { tablesOf } from '../core/db/schema.js';
import { addMember, ownerWithService } from '../test/booking/fixtures.js';
import { machine, percentile, report } from './lib/report.js';

const PEOPLE = Number(process.env.BENCH_ANYONE_PEOPLE ?? 20);
const EVENTS = Number(process.env.BENCH_ANYONE_EVENTS ?? 2000);
const BOOKED = 100;
const OFFERS = Number(process.env.BENCH_ANYONE_OFFERS ?? 100);
const quiet = { info: () => {}, warn: () => {} };
const keys = keysFromSecret('bench');
const now = () => new Date();
const DAY = 86_400_000;
const HALF_HOUR = 1_800_000;

let seed = 7;
const rand = () => ((seed = (seed * 48271) % 2147483647) / 2147483647);
/** Half-hour-aligned times over the next `days` days, each lasting one to three half hours. */
const scattered = (count: number, days: number): Interval[] => Array.from({ length: count }, () => {
  const start = Math.floor((Date.now() + rand() * days * DAY) / HALF_HOUR) * HALF_HOUR;
  return { start, end: start + (1 + Math.floor(rand() * 3)) * HALF_HOUR };
});

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-anyone-'));
const handle = openDatabase(path.join(dir, 'appliance.db'));
try {
  const db = handle.db;
  const { user, service } = await ownerWithService(db, { durationMinutes: 60 });
  const people: number[] = [];
  for (let i = 0; i < PEOPLE; i++) people.push(await addMember(db, user.id, `Person ${i + 1}`, [{ serviceId: service.id }]));

  // Each person's calendar, in memory: 2,000 events over the next 60 days.
  const calendars = new Map<number | undefined, Interval[]>(people.map((id) => [id, scattered(EVENTS, 60)]));
  const calendar: CalendarReader & CalendarWriter = {
    busy: async (_owner, from, to, read) => (calendars.get(read.staffId) ?? []).filter((e) => e.start < to && e.end > from),
    put: async () => 'no-calendar',
    remove: async () => undefined,
  };

  // Their live bookings as rows: 100 each over the 14-day horizon, one start per person at most.
  const { bookings } = tablesOf(db);
  for (const staffId of people) {
    const starts = [...new Set(scattered(BOOKED, 14).map((b) => b.start))];
    for (const start of starts) {
      await db.insert(bookings).values({
        userId: user.id, serviceId: service.id, staffId, startAt: new Date(start), endAt: new Date(start + 60 * 60_000), blockEndAt: new Date(start + 60 * 60_000),
        callerName: 'Bench', callerNumber: '+447700900999', slotKey: `${service.id}:${start}:${staffId}`, callId: null, status: 'booked', createdAt: new Date(),
      });
    }
  }

  const desk = () => createDeskFactory({ db, now, keys, log: quiet, calendar, boundMs: 60_000 })(user.id);
  const wishes = ['', 'tomorrow morning', 'next week', 'after three', 'friday'];
  const time = async (label: string, staffId?: number) => {
    await desk().offer({ wish: '', staffId });
    const times: number[] = [];
    for (let i = 0; i < OFFERS; i++) {
      const t = performance.now();
      const r = await desk().offer({ wish: wishes[i % wishes.length]!, staffId });
      times.push(performance.now() - t);
      if (r.kind === 'unavailable') throw new Error(r.reason);
    }
    console.log(`${label}: p50 ${percentile(times, 50).toFixed(1)} ms, p95 ${percentile(times, 95).toFixed(1)} ms (${OFFERS} offers)`);
    return times;
  };

  console.log(machine());
  const anyone = await time(`"anyone" across ${PEOPLE} people, ${EVENTS} events and ${BOOKED} bookings each`);
  const one = await time('one person (reference)', people[0]);
  report({ bench: 'anyone-free-times', measure: `offer for "anyone", ${PEOPLE} people × ${EVENTS} events, p50`, value: `${percentile(anyone, 50).toFixed(1)} ms` });
  report({ bench: 'anyone-free-times', measure: `offer for "anyone", ${PEOPLE} people × ${EVENTS} events, p95`, value: `${percentile(anyone, 95).toFixed(1)} ms`, budget: '< 300 ms' });
  report({ bench: 'anyone-free-times', measure: `offer for one person, ${EVENTS} events, p95`, value: `${percentile(one, 95).toFixed(1)} ms` });
} finally {
  await handle.close();
  fs.rmSync(dir, { recursive: true, force: true });
}
