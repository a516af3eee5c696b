// Booking (issue 41): "book me in" → three times offered, with 2,000 events including 50 weekly
// series in the owner's calendar, read from a real Radicale over CalDAV (expanded on the box)
// and from a pasted iCal address (local HTTP feed, cached); and a booking's commit.
// Prints figures; asserts nothing. Run: npx tsx bench/booking.ts
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { createDeskFactory } from '../core/booking/agent-booking-adapter.js';
import { connectCalDav, setIcalAddress } from '../core/booking/calendars/calendar-settings.js';
import { createIcalAddressReader } from '../core/booking/calendars/ical-address.js';
import { calendarIcs } from '../core/booking/calendars/ics-writer.js';
import { keysFromSecret } from '../core/booking/calendars/keys.js';
import { ownerCalendars } from '../core/booking/calendars/owner-calendars.js';
import { openDatabase } from '../core/db/client.js';
import { callFrom, ownerWithService } from '../test/booking/fixtures.js';
import { putIcs, startRadicale } from '../test/helpers/radicale.js';
import { percentile, report } from './lib/report.js';

const EVENTS = Number(process.env.BENCH_BOOKING_EVENTS ?? 2000);
const SERIES = 50;
const OFFERS = Number(process.env.BENCH_BOOKING_OFFERS ?? 100);
const BOOKINGS = Number(process.env.BENCH_BOOKING_COMMITS ?? 200);
const quiet = { info: () => {}, warn: () => {} };
const keys = keysFromSecret('bench');
const now = () => new Date();
const DAY = 86_400_000;

// The calendar: singles over the next 60 days in working hours, and weekly series begun a year ago.
const t0 = Date.now();
let seed = 1;
const rand = () => ((seed = (seed * 48271) % 2147483647) / 2147483647);
const singles = Array.from({ length: EVENTS - SERIES }, (_, i) => {
  const start = new Date(Math.floor((t0 + rand() * 60 * DAY) / 1_800_000) * 1_800_000);
  return { uid: `single-${i}`, summary: 'Busy', start, end: new Date(start.getTime() + (1 + Math.floor(rand() * 3)) * 1_800_000), stamp: new Date(t0) };
});
const seriesIcs = (i: number) => {
  const start = new Date(Math.floor((t0 - 365 * DAY + rand() * 7 * DAY) / 3_600_000) * 3_600_000).toISOString().replace(/[-:]/g, '').slice(0, 15) + 'Z';
  return ['BEGIN:VEVENT', `UID:series-${i}`, 'DTSTAMP:20260101T000000Z', `DTSTART:${start}`, 'DURATION:PT1H', 'RRULE:FREQ=WEEKLY', 'SUMMARY:Weekly', 'END:VEVENT'].join('\r\n');
};
const withSeries = (ics: string, from: number, to: number) => ics.replace('END:VCALENDAR', `${Array.from({ length: to - from }, (_, k) => seriesIcs(from + k)).join('\r\n')}\r\nEND:VCALENDAR`);

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-booking-'));
const handle = openDatabase(path.join(dir, 'appliance.db'));
const radicale = await startRadicale();
const feedServer = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/calendar' }).end(withSeries(calendarIcs(singles), 0, SERIES)));
await new Promise<void>((r) => feedServer.listen(0, '127.0.0.1', r));

type Desk = ReturnType<ReturnType<typeof createDeskFactory>>;
/** `deskFor(i)`: the desk for offer i (a new one per offer measures a call's first offer, the calendar read included). */
async function timeOffers(label: string, deskFor: (i: number) => Desk) {
  const wishes = ['', 'tomorrow morning', 'next week', 'after three', 'friday'];
  await deskFor(-1).offer({ wish: '' });
  const times: number[] = [];
  for (let i = 0; i < OFFERS; i++) {
    const desk = deskFor(i);
    const t = performance.now();
    const r = await desk.offer({ wish: wishes[i % wishes.length]! });
    times.push(performance.now() - t);
    if (r.kind === 'unavailable') throw new Error(r.reason);
  }
  console.log(`${label}: p50 ${percentile(times, 50).toFixed(1)} ms, p95 ${percentile(times, 95).toFixed(1)} ms (${OFFERS} offers)`);
  report({ bench: 'booking', measure: `offer, ${EVENTS} events incl. ${SERIES} weekly series, ${label}, p95`, value: `${percentile(times, 95).toFixed(1)} ms`, budget: '< 300 ms' });
}

try {
  console.log(`Writing ${EVENTS} events into Radicale…`);
  for (let i = 0; i < singles.length; i++) await putIcs(radicale, `s${i}.ics`, calendarIcs([singles[i]!]));
  for (let i = 0; i < SERIES; i++) await putIcs(radicale, `r${i}.ics`, withSeries(calendarIcs([]), i, i + 1));

  // Radicale and the iCal server listen on loopback: the guard's test seam lets them through.
  const guard = { allowLoopback: true };
  const calendarFor = () => ownerCalendars({ db: handle.db, keys, now, guard, icalAddress: createIcalAddressReader({ now, guard, log: quiet }) });
  const caldavOwner = await ownerWithService(handle.db);
  const ok = await connectCalDav(handle.db, keys, caldavOwner.user.id, { address: radicale.calendarUrl, username: radicale.user, password: radicale.password }, now(), AbortSignal.timeout(10_000), guard);
  if (!ok.ok) throw new Error(ok.message);
  const fresh = () => createDeskFactory({ db: handle.db, now, keys, log: quiet, calendar: calendarFor(), boundMs: 60_000 })(caldavOwner.user.id);
  await timeOffers('CalDAV (Radicale, loopback), first offer of a call', fresh);
  const oneCall = fresh();
  await timeOffers('CalDAV, later offers in the same minute', () => oneCall);

  const icalOwner = await ownerWithService(handle.db);
  await setIcalAddress(handle.db, keys, icalOwner.user.id, `http://127.0.0.1:${(feedServer.address() as { port: number }).port}/feed.ics`, now());
  const icalDesk = createDeskFactory({ db: handle.db, now, keys, log: quiet, calendar: calendarFor(), boundMs: 60_000 })(icalOwner.user.id);
  await timeOffers('iCal address (cached)', () => icalDesk);

  // A booking's commit: offer, then book the first slot (the claim's transaction), no calendar.
  const plain = await ownerWithService(handle.db, { durationMinutes: 10 });
  const desk = createDeskFactory({ db: handle.db, now, keys, log: quiet })(plain.user.id);
  const commits: number[] = [];
  for (let i = 0; i < BOOKINGS; i++) {
    const offer = await desk.offer({ wish: '' });
    if (offer.kind !== 'offered') break;
    const callId = await callFrom(handle.db, plain.user.id, '+447700900999');
    const t = performance.now();
    const r = await desk.book({ slotId: offer.slots[0]!.id, callId, callerName: 'Bench', callerNumber: '+447700900999' });
    commits.push(performance.now() - t);
    if (r.kind !== 'booked') throw new Error(r.kind);
  }
  console.log(`booking commit (SQLite): p50 ${percentile(commits, 50).toFixed(2)} ms, p95 ${percentile(commits, 95).toFixed(2)} ms (${commits.length} bookings)`);
  report({ bench: 'booking', measure: 'booking commit (claim transaction, SQLite), p95', value: `${percentile(commits, 95).toFixed(2)} ms` });
} finally {
  await handle.close();
  await radicale.stop();
  await new Promise((r) => feedServer.close(r));
  fs.rmSync(dir, { recursive: true, force: true });
}
