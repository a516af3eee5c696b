// Issue 41: the owner's CalDAV calendar follows the box's bookings, against a real Radicale.
// The owner moves a booking: the old event is deleted and the new one written (If-None-Match: *).
// An event that failed to write is retried on the durable jobs until written, and never twice:
// the event is named after its slot, so a retry after a write whose answer was lost is refused
// (412) rather than making a second event. Radicale is reached through a small proxy in this
// file, so the test can stop Radicale at the moment the box writes, or lose the server's answer.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, eq, like } from 'drizzle-orm';
import ICAL from 'ical.js';
import { fetchCalendarObjects } from 'tsdav';
import { afterEach, describe, expect, it } from 'vitest';
import { connectCalDav } from '../../core/booking/calendars/calendar-settings.js';
import { bookings, jobs } from '../helpers/tables.js';
import type { OfferedSlot } from '../../dialogue/agent/booking-desk.js';
import { startRadicale, type Radicale } from '../helpers/radicale.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { waitUntil } from '../helpers/wait.js';
import { callFrom, ownerWithService } from './fixtures.js';

/** What the proxy does with the next PUT: pass it, stop Radicale first, or let it through and lose the answer. */
type PutMode = 'pass' | 'stop-radicale' | 'lose-answer';

interface Proxy {
  url: string;
  nextPut: PutMode;
  close(): Promise<void>;
}

async function startProxy(radicale: Radicale): Promise<Proxy> {
  const target = new URL(radicale.url);
  const proxy: Proxy = { url: '', nextPut: 'pass', close: async () => {} };
  const server = http.createServer((req, res) => {
    const mode = req.method === 'PUT' ? proxy.nextPut : 'pass';
    if (req.method === 'PUT') proxy.nextPut = 'pass';
    const forward = () => {
      const out = http.request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
        if (mode === 'lose-answer') {
          answer.resume();
          answer.on('end', () => res.destroy()); // written on the server; the box never hears so
          return;
        }
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      out.on('error', () => res.destroy()); // Radicale is down: the box sees the connection fail
      req.pipe(out);
    };
    if (mode === 'stop-radicale') void radicale.halt().then(forward);
    else forward();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  proxy.close = () => new Promise((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
  return proxy;
}

let server: TestServer | undefined;
let radicale: Radicale | undefined;
let proxy: Proxy | undefined;
afterEach(async () => {
  await server?.services.booking.stop();
  await server?.close();
  await proxy?.close();
  await radicale?.stop();
  server = undefined;
  radicale = undefined;
  proxy = undefined;
});

/** A box at Tuesday 1 December 2026, 08:00 London, whose owner's CalDAV calendar is Radicale behind the proxy. */
async function start() {
  radicale = await startRadicale();
  proxy = await startProxy(radicale);
  // Retries a tenth of a second apart: the test waits on the event, not on the default back-off's minutes.
  // Radicale and the proxy listen on loopback: the calendars' test seam lets them through.
  server = await startTestServer({ booking: { pollMs: 50, backoff: { baseMs: 100, maxMs: 500 }, calendarGuard: { allowLoopback: true } } });
  server.clock.offsetMs = Date.parse('2026-12-01T08:00:00Z') - Date.now();
  server.services.booking.start();
  const db = server.database.db;
  const { user } = await ownerWithService(db);
  const calendarUrl = radicale.calendarUrl.replace(radicale.url, proxy.url);
  const connected = await connectCalDav(db, server.services.booking.keys, user.id, { address: calendarUrl, username: radicale.user, password: radicale.password }, server.services.now(), AbortSignal.timeout(30_000), server.services.booking.calendarGuard);
  expect(connected.ok).toBe(true);
  return { db, userId: user.id, desk: server.services.booking.desk(user.id) };
}

/** The booking events in Radicale (read directly, not through the proxy): start and uid of each. */
async function eventsIn(r: Radicale, userId: number): Promise<Array<{ uid: string; start: string }>> {
  const headers = { authorization: `Basic ${Buffer.from(`${r.user}:${r.password}`).toString('base64')}` };
  const objects = await fetchCalendarObjects({ calendar: { url: r.calendarUrl }, headers, urlFilter: (u) => u.includes(`booking-${userId}-`) });
  return objects.map((o) => {
    const event = new ICAL.Event(new ICAL.Component(ICAL.parse(o.data as string)).getFirstSubcomponent('vevent')!);
    return { uid: event.uid, start: event.startDate.toJSDate().toISOString() };
  }).sort((a, b) => a.start.localeCompare(b.start));
}

async function bookFirst(s: Awaited<ReturnType<typeof start>>, wish: string): Promise<{ slot: OfferedSlot; bookingId: number }> {
  const offer = await s.desk.offer({ wish });
  if (offer.kind !== 'offered') throw new Error(`expected an offer, got ${offer.kind}`);
  const slot = offer.slots[0]!;
  const callId = await callFrom(s.db, s.userId, '+447700900011');
  const booked = await s.desk.book({ slotId: slot.id, callId, callerName: 'Gus', callerNumber: '+447700900011' });
  if (booked.kind !== 'booked') throw new Error(`expected booked, got ${booked.kind}`);
  return { slot, bookingId: booked.booking.id };
}

const uidAt = (userId: number, serviceId: number, start: Date | string) => `booking-${userId}-${serviceId}-${new Date(start).getTime()}`;

describe('the owner\'s CalDAV calendar follows the bookings (Radicale)', () => {
  it('the owner moves a booking: the old event is deleted and the new one written', async () => {
    const s = await start();
    const { slot, bookingId } = await bookFirst(s, 'Wednesday');
    expect(await eventsIn(radicale!, s.userId)).toEqual([{ uid: uidAt(s.userId, slot.serviceId, slot.start), start: slot.start.toISOString() }]);

    const to = Date.parse('2026-12-03T14:00:00Z');
    const moved = await server!.services.booking.moveByOwner(s.userId, bookingId, to);
    expect(moved.kind).toBe('moved');
    expect(await eventsIn(radicale!, s.userId)).toEqual([{ uid: uidAt(s.userId, slot.serviceId, new Date(to)), start: new Date(to).toISOString() }]);
  });

  it('Radicale stops as the owner\'s move is written: retried on the jobs while it is down, and once it is back the new event is there once and the old one gone', async () => {
    const s = await start();
    const { slot, bookingId } = await bookFirst(s, 'Wednesday');
    proxy!.nextPut = 'stop-radicale';
    const to = Date.parse('2026-12-03T14:00:00Z');
    const moved = await server!.services.booking.moveByOwner(s.userId, bookingId, to);
    if (moved.kind !== 'moved') throw new Error(moved.kind);
    // The booking stands (the box is the source of truth); the calendar's part waits on the jobs.
    expect((await s.db.select().from(bookings).where(eq(bookings.id, moved.row.id)))[0]).toMatchObject({ status: 'booked', startAt: new Date(to) });
    const calendarJobs = () => s.db.select().from(jobs).where(like(jobs.key, 'booking-calendar:%'));
    // Tried again while Radicale is down, and failing.
    await waitUntil(async () => {
      const rows = await calendarJobs();
      expect(rows.map((j) => j.key).sort()).toEqual([`booking-calendar:remove:${bookingId}`, `booking-calendar:write:${moved.row.id}`]);
      for (const j of rows) expect(j).toMatchObject({ status: 'pending' });
      for (const j of rows) expect(j.attempts).toBeGreaterThanOrEqual(2);
    }, 60_000, 50);

    await radicale!.restart();
    await waitUntil(async () => {
      for (const j of await calendarJobs()) expect(j.status).toBe('done');
    }, 60_000, 50);
    expect(await eventsIn(radicale!, s.userId)).toEqual([{ uid: uidAt(s.userId, slot.serviceId, new Date(to)), start: new Date(to).toISOString() }]);
  });

  it('a booking whose write reached Radicale but whose answer was lost: the retry is refused by the server (412), one event, the job done', async () => {
    const s = await start();
    proxy!.nextPut = 'lose-answer';
    const { slot, bookingId } = await bookFirst(s, 'Wednesday');
    const job = () => s.db.select().from(jobs).where(and(eq(jobs.key, `booking-calendar:write:${bookingId}`)));
    await waitUntil(async () => expect((await job())[0]).toMatchObject({ status: 'done' }), 60_000, 50);
    expect((await job())[0]!.attempts).toBe(1);
    expect(await eventsIn(radicale!, s.userId)).toEqual([{ uid: uidAt(s.userId, slot.serviceId, slot.start), start: slot.start.toISOString() }]);
  });
});
