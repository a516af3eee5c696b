// Issue 58, item 5: booking with a person. Each person's own diary (their hours inside the booking
// rules, their own calendar, their live bookings); "anyone" the soonest across the people who do
// the service, each time naming its person; never double-booked per person while two people
// can be booked at one time, on SQLite and on PostgreSQL with two cores.
import { and, eq } from 'drizzle-orm';
import ICAL from 'ical.js';
import { fetchCalendarObjects } from 'tsdav';
import { describe, expect, it, vi } from 'vitest';
import { bookingTextKey } from '../../core/booking/service.js';
import { bookedByCall } from '../../core/booking/store/bookings.js';
import { giveNumber, outboxTo } from '../caller-texts/helpers.js';
import { createDeskFactory } from '../../core/booking/agent-booking-adapter.js';
import { createOwnerBookingFactory } from '../../core/booking/owner-booking.js';
import type { DatabaseHandle } from '../../core/db/client.js';
import { tablesOf } from '../../core/db/schema.js';
import { ownerMember } from '../../core/team/store.js';
import { activeCustomer } from '../helpers/accounts.js';
import { putIcs, startRadicale } from '../helpers/radicale.js';
import { startTestServer } from '../helpers/server.js';
import { bookings } from '../helpers/tables.js';
import { usePostgres } from '../helpers/use-postgres.js';
import { twoCoreEngines } from './two-cores.js';
import { addMember, callFrom, ownerWithService, quiet, TEST_KEYS } from './fixtures.js';

const postgres = usePostgres();

// Tuesday 1 December 2026, 08:00 London: with 2 hours' notice the first slot is 10:00.
const NOW = new Date('2026-12-01T08:00:00Z');
const now = () => NOW;
const at = (iso: string) => Date.parse(iso);

const engines = twoCoreEngines(postgres, 'per-person-');

const deps = (core: DatabaseHandle) => ({ db: core.db, now, keys: TEST_KEYS, log: quiet });
const ownerBookingOn = (core: DatabaseHandle, ownerId: number) => createOwnerBookingFactory(deps(core))(ownerId);
const deskOn = (core: DatabaseHandle, ownerId: number) => createDeskFactory(deps(core))(ownerId);
const afternoons = () => {
  const pm = [{ open: '13:00', close: '17:30' }];
  return { mon: pm, tue: pm, wed: pm, thu: pm, fri: pm, sat: [], sun: [] };
};

describe.each(engines)('booking per person on $name', (engine) => {
  it('same person, same time, two cores at once: one booked, one taken; two people at one time: both booked', async () => {
    const cores = await engine.open();
    try {
      const [a, b] = cores as [DatabaseHandle, DatabaseHandle];
      const { user, service } = await ownerWithService(a.db);
      const tom = await addMember(a.db, user.id, 'Tom', [{ serviceId: service.id }]);
      const sarah = await addMember(a.db, user.id, 'Sarah', [{ serviceId: service.id }]);
      const book = (core: DatabaseHandle, start: string, staffId: number, caller: string) => async () =>
        ownerBookingOn(core, user.id).bookForCall({ callId: await callFrom(a.db, user.id, caller), serviceId: service.id, start: at(start), callerName: 'Kim', callerNumber: caller, staffId });
      for (const [round, start] of ['2026-12-02T09:00:00Z', '2026-12-02T11:00:00Z', '2026-12-03T14:00:00Z'].entries()) {
        const same = [book(a, start, tom, `+4477009001${round}1`), book(b, start, tom, `+4477009001${round}2`)];
        expect((await Promise.all(same.map((f) => f()))).map((r) => r.kind).sort()).toEqual(['booked', 'taken']);
        const other = await book(b, start, sarah, `+4477009001${round}3`)();
        expect(other.kind).toBe('booked');
      }
      const { bookings: table } = tablesOf(a.db);
      const live = await a.db.select().from(table).where(and(eq(table.userId, user.id), eq(table.status, 'booked')));
      const perPerson = (staffId: number) => live.filter((r) => r.staffId === staffId).map((r) => r.startAt.toISOString()).sort();
      expect(perPerson(tom)).toEqual(['2026-12-02T09:00:00.000Z', '2026-12-02T11:00:00.000Z', '2026-12-03T14:00:00.000Z']);
      expect(perPerson(sarah)).toEqual(perPerson(tom));
      expect(live).toHaveLength(6);
    } finally {
      await Promise.all(cores.map((c) => c.close()));
    }
  });

  it('the agent\'s desk: "anyone" offers the soonest across the people, naming each; "with Tom" offers Tom\'s own hours; a booking is with the person offered', async () => {
    const [core] = await engine.open();
    try {
      const { user, service } = await ownerWithService(core!.db);
      const tom = await addMember(core!.db, user.id, 'Tom', [{ serviceId: service.id, durationMinutes: 90 }], afternoons());
      const sarah = await addMember(core!.db, user.id, 'Sarah', [{ serviceId: service.id }]);
      const desk = deskOn(core!, user.id);
      expect((await desk.people()).map((p) => p.name)).toEqual(['Tom', 'Sarah']);
      // Sarah works the booking hours from 09:00; Tom only afternoons.
      const anyone = await desk.offer({ wish: 'tomorrow' });
      if (anyone.kind !== 'offered') throw new Error(`expected offers, got ${anyone.kind}`);
      expect(anyone.slots.map((s) => [s.start.toISOString(), s.staffName])).toEqual([
        ['2026-12-02T09:00:00.000Z', 'Sarah'], ['2026-12-02T09:30:00.000Z', 'Sarah'], ['2026-12-02T10:00:00.000Z', 'Sarah'],
      ]);
      const withTom = await desk.offer({ wish: 'tomorrow', staffId: tom });
      if (withTom.kind !== 'offered') throw new Error(`expected offers, got ${withTom.kind}`);
      // His own length: 90 minutes.
      expect(withTom.slots.map((s) => [s.start.toISOString(), s.end.toISOString(), s.staffName])).toEqual([
        ['2026-12-02T13:00:00.000Z', '2026-12-02T14:30:00.000Z', 'Tom'], ['2026-12-02T13:30:00.000Z', '2026-12-02T15:00:00.000Z', 'Tom'], ['2026-12-02T14:00:00.000Z', '2026-12-02T15:30:00.000Z', 'Tom'],
      ]);
      const booked = await desk.book({ slotId: withTom.slots[0]!.id, callId: await callFrom(core!.db, user.id, '+447700900201'), callerName: 'Kim', callerNumber: '07700 900201' });
      if (booked.kind !== 'booked') throw new Error(`expected booked, got ${booked.kind}`);
      expect(booked.booking.staffName).toBe('Tom');
      const { bookings: table } = tablesOf(core!.db);
      expect((await core!.db.select().from(table).where(eq(table.id, booked.booking.id)))[0]!.staffId).toBe(tom);
      // While Tom is booked (13:00–14:30) the times are Sarah's; where both are free the first in the owner's order (Tom) has it, each time once.
      const afternoon = await desk.offer({ wish: 'tomorrow after one' });
      if (afternoon.kind !== 'offered') throw new Error(`expected offers, got ${afternoon.kind}`);
      expect(afternoon.slots.map((s) => [s.start.toISOString(), s.staffName])).toEqual([
        ['2026-12-02T13:00:00.000Z', 'Sarah'], ['2026-12-02T13:30:00.000Z', 'Sarah'], ['2026-12-02T14:00:00.000Z', 'Sarah'],
      ]);
      const later = await desk.offer({ wish: 'tomorrow after three' });
      if (later.kind !== 'offered') throw new Error(`expected offers, got ${later.kind}`);
      expect(later.slots.map((s) => [s.start.toISOString(), s.staffName])).toEqual([
        ['2026-12-02T15:00:00.000Z', 'Tom'], ['2026-12-02T15:30:00.000Z', 'Tom'], ['2026-12-02T16:00:00.000Z', 'Tom'],
      ]);
      expect((await desk.offer({ wish: 'tomorrow after three', staffId: sarah })).kind).toBe('offered');
    } finally {
      await core!.close();
    }
  });

  it('a service Tom does not do never offers Tom, and a booking with him for it is refused', async () => {
    const [core] = await engine.open();
    try {
      const { user, service } = await ownerWithService(core!.db);
      const { bookingServices } = tablesOf(core!.db);
      const cut = (await core!.db.insert(bookingServices).values({ userId: user.id, name: 'Haircut', durationMinutes: 30, bufferMinutes: 0 }).returning())[0]!;
      const tom = await addMember(core!.db, user.id, 'Tom', [{ serviceId: service.id }]);
      await addMember(core!.db, user.id, 'Sarah', [{ serviceId: service.id }, { serviceId: cut.id }]);
      const owner = ownerBookingOn(core!, user.id);
      const times = await owner.freeTimes(cut.id, undefined, 500);
      if (times.kind !== 'free') throw new Error(`expected free times, got ${times.kind}`);
      expect(times.slots.length).toBeGreaterThan(100);
      expect(new Set(times.slots.map((s) => s.person.name))).toEqual(new Set(['Sarah']));
      expect((await owner.freeTimes(cut.id, undefined, 3, undefined, tom)).kind).toBe('no-person');
      const asked = await owner.bookForCall({ callId: await callFrom(core!.db, user.id, '+447700900301'), serviceId: cut.id, start: at('2026-12-02T09:00:00Z'), callerName: 'Kim', callerNumber: '+447700900301', staffId: tom });
      expect(asked.kind).toBe('no-person');
      // The agent is never offered him for it either.
      const offered = await deskOn(core!, user.id).offer({ serviceId: cut.id, wish: 'tomorrow' });
      if (offered.kind !== 'offered') throw new Error(`expected offers, got ${offered.kind}`);
      expect(offered.slots.map((s) => s.staffName)).toEqual(['Sarah', 'Sarah', 'Sarah']);
    } finally {
      await core!.close();
    }
  });

  it('a business without a team books its owner\'s member, and names nobody', async () => {
    const [core] = await engine.open();
    try {
      const { user } = await ownerWithService(core!.db);
      const desk = deskOn(core!, user.id);
      const offer = await desk.offer({ wish: 'tomorrow' });
      if (offer.kind !== 'offered') throw new Error(`expected offers, got ${offer.kind}`);
      expect(offer.slots.map((s) => s.staffName)).toEqual([undefined, undefined, undefined]);
      const booked = await desk.book({ slotId: offer.slots[0]!.id, callId: await callFrom(core!.db, user.id, '+447700900401'), callerName: 'Kim', callerNumber: '07700 900401' });
      if (booked.kind !== 'booked') throw new Error(`expected booked, got ${booked.kind}`);
      expect(booked.booking.staffName).toBeUndefined();
      const { bookings: table } = tablesOf(core!.db);
      expect((await core!.db.select().from(table).where(eq(table.id, booked.booking.id)))[0]!.staffId).toBe((await ownerMember(core!.db, user.id)).id);
    } finally {
      await core!.close();
    }
  });
});

// Through the API, on the run's engine (SQLite, or PostgreSQL under TEST_DATABASE=postgres), with Tom's own real Radicale calendar.
describe('a member\'s own calendar (PUT/DELETE /api/user/team/:id/calendar)', () => {
  it('blocks only Tom\'s times, takes his bookings into it, names him in the feed; one person one time a 201 and a 409, two people both 201', async () => {
    // Radicale shares this loaded machine: its answer gets a wide bound here (the bound is tested alone in claim.test.ts).
    const server = await startTestServer({ booking: { pollMs: 50, calendarGuard: { allowLoopback: true }, calendarBoundMs: 60_000 } });
    server.clock.offsetMs = Date.parse('2026-12-01T07:50:00Z') - Date.now();
    server.services.booking.start();
    const { client, user } = await activeCustomer(server, { businessName: 'Hale Plumbing' });
    await giveNumber(server, user.id, '+447700900061');
    const service = (await client.post('/api/user/booking/services', { name: 'Boiler service', durationMinutes: 60 })).body as { id: number };
    const db = server.database.db;
    const tom = await addMember(db, user.id, 'Tom', [{ serviceId: service.id }]);
    const sarah = await addMember(db, user.id, 'Sarah', [{ serviceId: service.id }]);
    const radicale = await startRadicale();
    try {

      const connected = await client.request('PUT', `/api/user/team/${tom}/calendar`, { address: radicale.calendarUrl, username: radicale.user, password: radicale.password });
      expect([connected.status, connected.body.caldav]).toEqual([200, { url: radicale.calendarUrl, username: radicale.user }]);
      expect(connected.body.password).toBeUndefined();
      // Tom's, not the owner's.
      expect((await client.get('/api/user/booking/calendar')).body.caldav).toBeNull();
      // The same refusals as the owner's calendar routes, and 404 for someone not on the team.
      const bad = await client.request('PUT', `/api/user/team/${tom}/calendar`, { address: 'https://u:p@cal.example/', username: 'u', password: 'p' });
      expect([bad.status, bad.body.message]).toEqual([400, 'The CalDAV address must not contain a user name or password: type them in their own boxes.']);
      // Inside the network: refused before any request (this server lets only loopback through, for Radicale).
      const inside = await client.request('PUT', `/api/user/team/${sarah}/calendar`, { url: 'http://10.1.2.3/cal.ics' });
      expect(inside.status).toBe(400);
      expect(inside.body.message).toMatch(/^That address is not allowed: use your calendar provider's public address/);
      expect((await client.request('PUT', '/api/user/team/999999/calendar', { url: null })).status).toBe(404);
      const other = await activeCustomer(server, { businessName: 'Other Ltd' });
      expect((await other.client.request('DELETE', `/api/user/team/${tom}/calendar`)).status).toBe(404);

      // Wednesday 2 December, 09:00–10:30 UTC (GMT): busy in Tom's own calendar.
      await putIcs(radicale, 'dentist.ics', ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//test//busy//EN', 'BEGIN:VEVENT', 'UID:dentist-1', 'DTSTAMP:20261101T000000Z',
        'DTSTART:20261202T090000Z', 'DTEND:20261202T103000Z', 'SUMMARY:Dentist', 'END:VEVENT', 'END:VCALENDAR', ''].join('\r\n'));
      const firstTimes = async (staffId: number) => (await client.get(`/api/user/booking/times?serviceId=${service.id}&after=2026-12-02T08:00:00Z&staffId=${staffId}`)).body.times.slice(0, 2);
      expect(await firstTimes(tom)).toEqual([
        expect.objectContaining({ start: '2026-12-02T10:30:00.000Z', staffId: tom, staffName: 'Tom' }), expect.objectContaining({ start: '2026-12-02T11:00:00.000Z', staffName: 'Tom' }),
      ]);
      expect(await firstTimes(sarah)).toEqual([
        expect.objectContaining({ start: '2026-12-02T09:00:00.000Z', staffName: 'Sarah' }), expect.objectContaining({ start: '2026-12-02T09:30:00.000Z', staffName: 'Sarah' }),
      ]);

      const voicemail = (from: string) => callFrom(db, user.id, from, { mode: 'voicemail', status: 'voicemail' });
      const book = async (from: string, start: string, staffId: number) => client.post(`/api/call-logs/${await voicemail(from)}/booking`, { serviceId: service.id, start, callerName: 'Kim', staffId });
      // Tom's calendar blocks 09:30 for him only.
      expect((await book('+447700900501', '2026-12-02T09:30:00Z', tom)).status).toBe(409);
      expect((await book('+447700900502', '2026-12-02T09:30:00Z', sarah)).status).toBe(201);

      // The same person at the same time, two calls at once: one 201, one 409; the other person then: 201.
      const same = await Promise.all([book('+447700900503', '2026-12-02T14:00:00Z', tom), book('+447700900504', '2026-12-02T14:00:00Z', tom)]);
      expect(same.map((r) => r.status).sort()).toEqual([201, 409]);
      expect((await book('+447700900505', '2026-12-02T14:00:00Z', sarah)).status).toBe(201);

      // Tom's booking is in Tom's calendar, named after its slot and him.
      const mine = same.find((r) => r.status === 201)!.body as { id: number };
      const headers = { authorization: `Basic ${Buffer.from(`${radicale.user}:${radicale.password}`).toString('base64')}` };
      const objects = await fetchCalendarObjects({ calendar: { url: radicale.calendarUrl }, headers, urlFilter: (u) => u.includes(`booking-${user.id}-`) });
      expect(objects.map((o) => {
        const event = new ICAL.Event(new ICAL.Component(ICAL.parse(o.data as string)).getFirstSubcomponent('vevent')!);
        return [event.uid, event.summary];
      })).toEqual([[`booking-${user.id}-s${tom}-${service.id}-${Date.parse('2026-12-02T14:00:00Z')}`, 'Boiler service with Tom: Kim']]);

      // The caller's confirmation and the owner's summary of the call name him.
      const won = mine as { id: number; callId: number; callerNumber: string };
      await vi.waitFor(async () => expect((await server.services.booking.queue.byKey(bookingTextKey('confirm', won.id)))?.status).toBe('done'), { timeout: 20_000, interval: 20 });
      // Read until whole: the other bookings' texts may be mid-write in the outbox folder as it is listed.
      await vi.waitFor(() => expect(outboxTo(server!, won.callerNumber).map((m) => m.body)).toEqual([expect.stringMatching(/^Hale Plumbing: you're booked for Boiler service with Tom on Wed 2 Dec, 14:00\. Reply C to cancel\./)]), { timeout: 20_000, interval: 50 });
      expect(await bookedByCall(db, won.callId)).toBe('Boiler service with Tom, Wed 2 Dec, 14:00');

      // The business's feed names the person of each booking.
      const feedUrl = (await client.post('/api/user/booking/calendar/feed')).body.feedUrl as string;
      const feed = await (await fetch(server.url + new URL(feedUrl).pathname)).text();
      expect(feed).toContain('SUMMARY:Boiler service with Tom: Kim');
      expect(feed).toContain('SUMMARY:Boiler service with Sarah: Kim');

      // Moving a booking can change the person: Tom's 14:00 to Sarah at 15:00; someone who does not do it is a 400.
      const moved = await client.post(`/api/user/bookings/${mine.id}/move`, { start: '2026-12-02T15:00:00Z', staffId: sarah });
      expect(moved.status).toBe(200);
      const row = (await db.select().from(bookings).where(eq(bookings.id, moved.body.id)))[0]!;
      expect([row.staffId, row.startAt.toISOString()]).toEqual([sarah, '2026-12-02T15:00:00.000Z']);
      const owner = (await ownerMember(db, user.id)).id;
      const refused = await client.post(`/api/user/bookings/${moved.body.id}/move`, { start: '2026-12-02T16:00:00Z', staffId: owner });
      expect([refused.status, refused.body.message]).toEqual([400, 'That person is not on your team or does not do this service: pick someone who does, or add the service to them under Team.']);

      const gone = await client.request('DELETE', `/api/user/team/${tom}/calendar`);
      expect([gone.status, gone.body.caldav, gone.body.icalAddressSet]).toEqual([200, null, false]);
      // His calendar gone, his morning is free again.
      expect(await firstTimes(tom)).toEqual([
        expect.objectContaining({ start: '2026-12-02T09:00:00.000Z', staffName: 'Tom' }), expect.objectContaining({ start: '2026-12-02T09:30:00.000Z', staffName: 'Tom' }),
      ]);
    } finally {
      await server.services.booking.stop();
      await server.close();
      await radicale.stop();
    }
  });
});
