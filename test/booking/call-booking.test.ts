// Issue 41, item 8: the owner books the caller of a voicemail from Call Details. The free times
// come from the agent's slot engine, the booking from the agent's claim (linked to the call, never
// double-booked, on SQLite and PostgreSQL), the caller's confirmation on the caller-texts road,
// once; every bad input a 400, 404 or 409 with a sentence the console shows.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { and, eq } from 'drizzle-orm';
import ICAL from 'ical.js';
import { fetchCalendarObjects } from 'tsdav';
import { bookings } from '../helpers/tables.js';
import { bookingTextKey } from '../../core/booking/service.js';
import { activeCustomer } from '../helpers/accounts.js';
import { putIcs, startRadicale, type Radicale } from '../helpers/radicale.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { giveNumber, outboxTo } from '../caller-texts/helpers.js';
import { busyMachine } from '../helpers/busy-machine.js';
import { callFrom } from './fixtures.js';

const DID = '+447700900060';
const CALLER = '+447700900402';
const OTHER_CALLER = '+447700900403';
let server: TestServer | undefined;
let radicale: Radicale | undefined;
afterEach(async () => {
  await server?.services.booking.stop();
  await server?.close();
  server = undefined;
  await radicale?.stop();
  radicale = undefined;
});

/** Tuesday 1 December 2026, 07:50 London (GMT): with 2 hours' notice the first free time is 10:00. */
async function start(booking: { calendarBoundMs?: number } = {}) {
  // Radicale listens on loopback: the calendars' test seam lets it through.
  server = await startTestServer({ booking: { pollMs: 50, calendarGuard: { allowLoopback: true }, ...booking } });
  server.clock.offsetMs = Date.parse('2026-12-01T07:50:00Z') - Date.now();
  server.services.booking.start();
  const { client, user } = await activeCustomer(server, { businessName: 'Hale Plumbing' });
  await giveNumber(server, user.id, DID);
  const service = (await client.post('/api/user/booking/services', { name: 'Boiler service', durationMinutes: 60 })).body as { id: number };
  const voicemail = (from: string) => callFrom(server!.database.db, user.id, from, { mode: 'voicemail', status: 'voicemail', wantsBooking: true, aiSummary: 'Kim would like to book a boiler service.' });
  return { client, userId: user.id, service, voicemail };
}

const confirmed = async (bookingId: number) =>
  vi.waitFor(async () => expect((await server!.services.booking.queue.byKey(bookingTextKey('confirm', bookingId)))?.status).toBe('done'), { timeout: 20_000, interval: 20 });

describe('the owner books the caller of a call (Call Details)', () => {
  it('offers free times from the slot engine, books one linked to the call, and texts the caller once', async () => {
    const { client, userId, service, voicemail } = await start();
    const callId = await voicemail(CALLER);
    expect((await client.get(`/api/call-logs/${callId}`)).body.callLog.wantsBooking).toBe(true);

    const times = await client.get(`/api/user/booking/times?serviceId=${service.id}`);
    expect(times.status).toBe(200);
    expect(times.body.times.slice(0, 3)).toEqual([
      { start: '2026-12-01T10:00:00.000Z', end: '2026-12-01T11:00:00.000Z', spoken: "Tuesday the 1st of December at ten o'clock" },
      { start: '2026-12-01T10:30:00.000Z', end: '2026-12-01T11:30:00.000Z', spoken: "Tuesday the 1st of December at half past ten" },
      { start: '2026-12-01T11:00:00.000Z', end: '2026-12-01T12:00:00.000Z', spoken: "Tuesday the 1st of December at eleven o'clock" },
    ]);
    expect(times.body.times).toHaveLength(9);
    // "Later times": the next ones after the last shown.
    const later = await client.get(`/api/user/booking/times?serviceId=${service.id}&after=${encodeURIComponent(times.body.times[8].start)}`);
    expect(later.body.times[0].start).toBe('2026-12-01T14:30:00.000Z');

    const made = await client.post(`/api/call-logs/${callId}/booking`, { serviceId: service.id, start: '2026-12-01T10:30:00Z', callerName: ' Kim Lee ' });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ serviceName: 'Boiler service', start: '2026-12-01T10:30:00.000Z', callerName: 'Kim Lee', callerNumber: CALLER, callId, status: 'booked' });
    const rows = await server!.database.db.select().from(bookings).where(eq(bookings.userId, userId));
    expect(rows.map((r) => [r.id, r.callId, r.startAt.toISOString(), r.status])).toEqual([[made.body.id, callId, '2026-12-01T10:30:00.000Z', 'booked']]);
    // Call Details shows it, Bookings lists it, and the time is no longer offered (the 10:00 still is: it ends as this starts).
    expect((await client.get(`/api/user/bookings?callId=${callId}`)).body.bookings).toEqual([expect.objectContaining({ id: made.body.id, callId, status: 'booked' })]);
    expect((await client.get('/api/user/bookings')).body.bookings.map((b: { id: number }) => b.id)).toEqual([made.body.id]);
    const after = (await client.get(`/api/user/booking/times?serviceId=${service.id}`)).body.times.map((t: { start: string }) => t.start);
    expect(after.slice(0, 2)).toEqual(['2026-12-01T11:30:00.000Z', '2026-12-01T12:00:00.000Z']);

    await confirmed(made.body.id);
    expect(outboxTo(server!, CALLER).map((m) => m.body)).toEqual([expect.stringMatching(/^Hale Plumbing: you're booked for Boiler service on Tue 1 Dec, 10:30\. Reply C to cancel\. Add to your calendar: http/)]);

    // Booking it again (a second click) is a 409 that says so; nothing more is written or texted.
    const again = await client.post(`/api/call-logs/${callId}/booking`, { serviceId: service.id, start: '2026-12-01T14:00:00Z' });
    expect([again.status, again.body.message]).toEqual([409, 'This call already has a booking: Boiler service, Tue 1 Dec, 10:30. Move or cancel it under Bookings.']);
    expect(await server!.database.db.select().from(bookings).where(eq(bookings.userId, userId))).toHaveLength(1);
    expect(outboxTo(server!, CALLER)).toHaveLength(1);

    // Moved by the owner, it is still this call's booking, at its new time.
    const moved = await client.post(`/api/user/bookings/${made.body.id}/move`, { start: '2026-12-02T11:00:00Z' });
    expect(moved.status).toBe(200);
    const stillBooked = await client.post(`/api/call-logs/${callId}/booking`, { serviceId: service.id, start: '2026-12-03T09:00:00Z' });
    expect([stillBooked.status, stillBooked.body.message]).toEqual([409, 'This call already has a booking: Boiler service, Wed 2 Dec, 11:00. Move or cancel it under Bookings.']);
    // Once cancelled, the caller can be booked from the call again.
    expect((await client.post(`/api/user/bookings/${moved.body.id}/cancel`)).status).toBe(200);
    const rebooked = await client.post(`/api/call-logs/${callId}/booking`, { serviceId: service.id, start: '2026-12-03T09:00:00Z' });
    expect(rebooked.status).toBe(201);
    expect((await client.get(`/api/user/bookings?callId=${callId}`)).body.bookings.filter((b: { status: string }) => b.status === 'booked').map((b: { id: number }) => b.id)).toEqual([rebooked.body.id]);
  });

  it('of two calls booking the same time at once, exactly one gets it and the other a 409', async () => {
    const { client, userId, service, voicemail } = await start();
    const [first, second] = [await voicemail(CALLER), await voicemail(OTHER_CALLER)];
    const body = { serviceId: service.id, start: '2026-12-02T09:00:00Z' };
    const answers = await Promise.all([client.post(`/api/call-logs/${first}/booking`, body), client.post(`/api/call-logs/${second}/booking`, body)]);
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409]);
    expect(answers.find((a) => a.status === 409)!.body.message).toBe('That time has just been taken, or your calendar now has something then. Pick another of the free times.');
    const live = await server!.database.db.select().from(bookings).where(and(eq(bookings.userId, userId), eq(bookings.status, 'booked')));
    expect(live.map((r) => r.startAt.toISOString())).toEqual(['2026-12-02T09:00:00.000Z']);
    expect([first, second]).toContain(live[0]!.callId);
  });

  it('8 calls booking one time at once, 10 rounds on a busy machine with a CalDAV calendar: one 201 and seven 409s each round, never a 503', { timeout: 240_000 }, async () => {
    // Radicale shares this loaded machine, so its own answer gets a wide bound here (the bound is
    // tested alone in claim.test.ts). What is proven: the local claim picks the winner and tells the
    // losers at once, and only the winner asks the calendar, so a loaded box never turns "taken" into 503.
    const { client, userId, service, voicemail } = await start({ calendarBoundMs: 60_000 });
    radicale = await startRadicale();
    expect((await client.request('PUT', '/api/user/booking/calendar/caldav', { address: radicale.calendarUrl, username: radicale.user, password: radicale.password })).status).toBe(200);
    const starts = [9, 10, 11, 12, 13, 14, 15, 16].map((h) => `2026-12-02T${String(h).padStart(2, '0')}:00:00Z`).concat(['2026-12-03T09:00:00Z', '2026-12-03T10:00:00Z']);
    // A claim reads the calendar afresh (no maxAgeMs); offers may use a recent copy.
    const reads = vi.spyOn(server!.services.booking.calendar, 'busy');
    const claimReads = () => reads.mock.calls.filter(([, , , read]) => read.maxAgeMs === undefined).length;
    const load = busyMachine();
    const rounds: Array<{ start: string; statuses: number[]; messages: string[]; claimReads: number }> = [];
    try {
      for (const start of starts) {
        const calls = await Promise.all(Array.from({ length: 8 }, (_, i) => voicemail(`+4477009005${String(i).padStart(2, '0')}`)));
        const before = claimReads();
        const answers = await Promise.all(calls.map((id) => client.post(`/api/call-logs/${id}/booking`, { serviceId: service.id, start })));
        rounds.push({ start, statuses: answers.map((a) => a.status).sort(), messages: [...new Set(answers.filter((a) => a.status !== 201).map((a) => a.body.message as string))], claimReads: claimReads() - before });
      }
    } finally {
      await load.stop();
    }
    const taken = 'That time has just been taken, or your calendar now has something then. Pick another of the free times.';
    expect(rounds).toEqual(starts.map((start) => ({ start, statuses: [201, 409, 409, 409, 409, 409, 409, 409], messages: [taken], claimReads: 1 })));
    const live = await server!.database.db.select().from(bookings).where(and(eq(bookings.userId, userId), eq(bookings.status, 'booked')));
    expect(live.map((r) => r.startAt.toISOString()).sort()).toEqual(starts.map((s) => new Date(s).toISOString()).sort());
  });

  it('answers each bad input with a sentence the console shows, and writes nothing', async () => {
    const { client, userId, service, voicemail } = await start();
    const callId = await voicemail(CALLER);
    const book = (body: Record<string, unknown>, id = callId) => client.post(`/api/call-logs/${id}/booking`, body);
    const said = async (p: Promise<{ status: number; body: { message: string } }>) => {
      const r = await p;
      return [r.status, r.body.message];
    };
    const noService = 'Pick one of your services: that one does not exist or was removed.';
    const notOffered = 'That time is not one your diary offers (outside your booking hours, too soon, too far ahead, or between the times offered). Pick one of the free times shown.';
    expect(await said(book({ serviceId: 9999, start: '2026-12-02T09:00:00Z' }))).toEqual([400, noService]);
    expect(await said(book({ serviceId: service.id, start: 'tomorrow at nine' }))).toEqual([400, 'The time must be a date and time with its zone, e.g. 2026-12-03T10:00:00Z.']);
    expect(await said(book({ serviceId: service.id, start: '2026-12-02T09:00:00' }))).toEqual([400, 'The time must be a date and time with its zone, e.g. 2026-12-03T10:00:00Z.']);
    // Outside booking hours (20:00), too soon (09:00 today, inside the 2 hours' notice), past the 14-day horizon, off the half hour, on a Saturday.
    for (const start of ['2026-12-02T20:00:00Z', '2026-12-01T09:00:00Z', '2026-12-18T10:00:00Z', '2026-12-02T09:07:00Z', '2026-12-05T10:00:00Z']) {
      expect(await said(book({ serviceId: service.id, start }))).toEqual([400, notOffered]);
    }
    expect(await said(book({ serviceId: service.id, start: '2026-12-02T09:00:00Z', callerName: 'K'.repeat(81) }))).toEqual([400, "The caller's name must be at most 80 characters."]);
    // An archived service cannot be booked.
    const old = (await client.post('/api/user/booking/services', { name: 'Old service', durationMinutes: 30 })).body as { id: number };
    await client.request('DELETE', `/api/user/booking/services/${old.id}`);
    expect(await said(book({ serviceId: old.id, start: '2026-12-02T09:00:00Z' }))).toEqual([400, noService]);
    // A withheld caller: nobody to book or text.
    const withheld = await callFrom(server!.database.db, userId, 'anonymous', { mode: 'voicemail', status: 'voicemail' });
    expect(await said(book({ serviceId: service.id, start: '2026-12-02T09:00:00Z' }, withheld))).toEqual([400, 'This caller withheld their number, so there is no one to book or text. Book them under Bookings once they call again.']);
    // Another owner's call, or none at all: 404, as if it did not exist.
    const other = await activeCustomer(server!, { businessName: 'Other Ltd' });
    expect(await said(other.client.post(`/api/call-logs/${callId}/booking`, { serviceId: service.id, start: '2026-12-02T09:00:00Z' }))).toEqual([404, 'Call not found.']);
    expect(await said(book({ serviceId: service.id, start: '2026-12-02T09:00:00Z' }, 999_999))).toEqual([404, 'Call not found.']);
    // A time another call took: 409.
    expect((await book({ serviceId: service.id, start: '2026-12-02T09:00:00Z' }, await voicemail(OTHER_CALLER))).status).toBe(201);
    expect(await said(book({ serviceId: service.id, start: '2026-12-02T09:30:00Z' }))).toEqual([409, 'That time has just been taken, or your calendar now has something then. Pick another of the free times.']);
    // Free times: a service that is not a number, or not the owner's.
    expect(await said(client.get('/api/user/booking/times?serviceId=abc'))).toEqual([400, noService]);
    expect(await said(client.get(`/api/user/booking/times?serviceId=${old.id}`))).toEqual([400, noService]);
    expect(await said(other.client.get(`/api/user/booking/times?serviceId=${service.id}`))).toEqual([400, noService]);
    expect(await said(client.get(`/api/user/booking/times?serviceId=${service.id}&after=soon`))).toEqual([400, 'after must be a date and time with its zone, e.g. 2026-12-03T10:00:00Z.']);
    // Only the one booking made above; the call itself has none.
    expect((await server!.database.db.select().from(bookings).where(eq(bookings.userId, userId))).map((r) => r.callId)).not.toContain(callId);
    expect(outboxTo(server!, CALLER)).toEqual([]);
  });

  it('with CalDAV connected: the owner\'s busy time is not offered, and the booking is written to their calendar as the agent\'s are', async () => {
    const { client, userId, service, voicemail } = await start();
    radicale = await startRadicale();
    const connected = await client.request('PUT', '/api/user/booking/calendar/caldav', { address: radicale.calendarUrl, username: radicale.user, password: radicale.password });
    expect(connected.status).toBe(200);
    // Wednesday 2 December, 09:00–10:30 UTC (GMT): busy in the owner's own calendar.
    await putIcs(radicale, 'dentist.ics', ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//test//busy//EN', 'BEGIN:VEVENT', 'UID:dentist-1', 'DTSTAMP:20261101T000000Z',
      'DTSTART:20261202T090000Z', 'DTEND:20261202T103000Z', 'SUMMARY:Dentist', 'END:VEVENT', 'END:VCALENDAR', ''].join('\r\n'));
    const callId = await voicemail(CALLER);
    const wednesday = (await client.get(`/api/user/booking/times?serviceId=${service.id}&after=2026-12-02T08:00:00Z`)).body.times.map((t: { start: string }) => t.start);
    expect(wednesday.slice(0, 2)).toEqual(['2026-12-02T10:30:00.000Z', '2026-12-02T11:00:00.000Z']);
    // A time the calendar blocks is a 409 (it is a time the diary offers, but not free), nothing written.
    const blocked = await client.post(`/api/call-logs/${callId}/booking`, { serviceId: service.id, start: '2026-12-02T09:30:00Z' });
    expect(blocked.status).toBe(409);
    expect(await server!.database.db.select().from(bookings).where(eq(bookings.userId, userId))).toEqual([]);
    const made = await client.post(`/api/call-logs/${callId}/booking`, { serviceId: service.id, start: '2026-12-02T10:30:00Z', callerName: 'Kim' });
    expect(made.status).toBe(201);
    const headers = { authorization: `Basic ${Buffer.from(`${radicale.user}:${radicale.password}`).toString('base64')}` };
    const objects = await fetchCalendarObjects({ calendar: { url: radicale.calendarUrl }, headers, urlFilter: (u) => u.includes(`booking-${userId}-`) });
    expect(objects.map((o) => {
      const event = new ICAL.Event(new ICAL.Component(ICAL.parse(o.data as string)).getFirstSubcomponent('vevent')!);
      return [event.uid, event.summary, event.startDate.toJSDate().toISOString()];
    })).toEqual([[`booking-${userId}-${service.id}-${Date.parse('2026-12-02T10:30:00Z')}`, 'Boiler service: Kim', '2026-12-02T10:30:00.000Z']]);
  });
});
