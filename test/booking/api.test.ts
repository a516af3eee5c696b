// Issue 41 item 6: the owner's booking API (docs/booking.md): services, rules, bookings list,
// cancel and move (the caller texted), the calendar settings with a real Radicale (the password
// never returned), and the private, revocable feed. Default deny: signed out gets 401.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import ICAL from 'ical.js';
import { activeCustomer } from '../helpers/accounts.js';
import { ApiClient } from '../helpers/client.js';
import { startRadicale, type Radicale } from '../helpers/radicale.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { giveNumber, outboxTo } from '../caller-texts/helpers.js';
import { callFrom } from './fixtures.js';

const DID = '+447700900050';
const CALLER = '+447700900302';
let server: TestServer | undefined;
let radicale: Radicale;
beforeAll(async () => { radicale = await startRadicale(); }, 60_000);
afterAll(async () => { await radicale?.stop(); });
afterEach(async () => {
  await server?.services.booking.stop();
  await server?.close();
  server = undefined;
});

async function start() {
  // Radicale listens on loopback: the calendars' test seam lets it through.
  server = await startTestServer({ booking: { pollMs: 50, calendarGuard: { allowLoopback: true } } });
  server.clock.offsetMs = Date.parse('2026-12-01T08:00:00Z') - Date.now();
  server.services.booking.start();
  const { client, user } = await activeCustomer(server, { businessName: 'Hale Plumbing' });
  await giveNumber(server, user.id, DID);
  return { client, userId: user.id };
}

describe('the owner\'s booking API', () => {
  it('is closed to the signed-out', async () => {
    await start();
    const anon = new ApiClient(server!.url);
    for (const path of ['/api/user/booking/services', '/api/user/booking/rules', '/api/user/bookings', '/api/user/booking/calendar']) {
      expect((await anon.get(path)).status).toBe(401);
    }
  });

  it('keeps services and rules, with a clear 400 for each mistake', async () => {
    const { client } = await start();
    const bad = await client.post('/api/user/booking/services', { name: 'Quick look', durationMinutes: 5 });
    expect([bad.status, bad.body.message]).toEqual([400, 'A service lasts a whole number of minutes from 10 to 240.']);
    expect((await client.post('/api/user/booking/services', { name: ' ', durationMinutes: 30 })).body.message).toBe('Give the service a name of 1 to 80 characters, e.g. "Boiler service".');
    const made = await client.post('/api/user/booking/services', { name: 'Boiler service', durationMinutes: 60, bufferMinutes: 15, agentSentence: 'Takes about an hour.' });
    expect(made.status).toBe(201);
    const edited = await client.request('PUT', `/api/user/booking/services/${made.body.id}`, { name: 'Boiler service', durationMinutes: 90, bufferMinutes: 15 });
    expect(edited.body).toEqual({ id: made.body.id, name: 'Boiler service', durationMinutes: 90, bufferMinutes: 15, agentSentence: null, pricePence: null, depositKind: 'none', depositPence: null, depositHoldMinutes: 30 });
    expect((await client.get('/api/user/booking/services')).body.services).toHaveLength(1);

    const rules = await client.get('/api/user/booking/rules');
    expect(rules.body.rules).toEqual({ hours: null, noticeMinutes: 120, horizonDays: 14, dailyCap: null });
    expect(rules.body.effectiveHours.mon).toEqual([{ open: '09:00', close: '17:30' }]);
    const week = { ...rules.body.effectiveHours, sat: [{ open: '10:00', close: '09:00' }] };
    const wrong = await client.request('PUT', '/api/user/booking/rules', { hours: week, noticeMinutes: 60, horizonDays: 21, dailyCap: 4 });
    expect([wrong.status, wrong.body.message]).toEqual([400, 'Booking hours: Saturday: closing time 09:00 must be after opening time 10:00.']);
    expect((await client.request('PUT', '/api/user/booking/rules', { hours: null, noticeMinutes: 60, horizonDays: 0, dailyCap: null })).body.message).toBe('How far ahead callers can book is a whole number of days from 1 to 365.');
    const saved = await client.request('PUT', '/api/user/booking/rules', { hours: { ...week, sat: [{ open: '10:00', close: '12:00' }] }, noticeMinutes: 60, horizonDays: 21, dailyCap: 4 });
    expect(saved.status).toBe(200);
    expect(saved.body.rules).toMatchObject({ noticeMinutes: 60, horizonDays: 21, dailyCap: 4 });
    expect(saved.body.effectiveHours.sat).toEqual([{ open: '10:00', close: '12:00' }]);
  });

  it('lists bookings; the owner moves one (the caller texted) and cancels it (the caller texted)', async () => {
    const { client, userId } = await start();
    const service = (await client.post('/api/user/booking/services', { name: 'Boiler service', durationMinutes: 60 })).body;
    const desk = server!.services.booking.desk(userId);
    const offer = await desk.offer({ serviceId: service.id, wish: 'Wednesday morning' });
    if (offer.kind !== 'offered') throw new Error(offer.kind);
    const callId = await callFrom(server!.database.db, userId, CALLER);
    const booked = await desk.book({ slotId: offer.slots[0]!.id, callId, callerName: 'Kim', callerNumber: CALLER });
    if (booked.kind !== 'booked') throw new Error(booked.kind);
    const list = await client.get('/api/user/bookings');
    expect(list.body.bookings).toEqual([expect.objectContaining({ id: booked.booking.id, start: '2026-12-02T09:00:00.000Z', serviceName: 'Boiler service', callerName: 'Kim', status: 'booked', spoken: "Wednesday the 2nd of December at nine o'clock" })]);

    expect((await client.post(`/api/user/bookings/${booked.booking.id}/move`, { start: 'tomorrow' })).status).toBe(400);
    // A refused time names its rule, in everyday words with the owner's own figures (issue 57, item 3).
    const refusal = async (start: string) => {
      const r = await client.post(`/api/user/bookings/${booked.booking.id}/move`, { start });
      return [r.status, r.body];
    };
    expect(await refusal('2026-12-02T20:00:00Z')).toEqual([409, { rule: 'outside-hours', message: 'That time is outside your booking hours (the whole booking must fit inside them). Pick another time.' }]);
    expect(await refusal('2026-12-01T09:00:00Z')).toEqual([409, { rule: 'too-soon', message: 'That time is too soon: you take bookings at least 2 hours ahead. Pick a later time.' }]);
    expect(await refusal('2026-12-21T10:00:00Z')).toEqual([409, { rule: 'too-far', message: 'That time is too far ahead: you take bookings up to 14 days ahead. Pick an earlier time.' }]);
    expect(await refusal('2026-12-25T10:00:00Z')).toEqual([409, expect.objectContaining({ rule: 'too-far' })]);
    const moved = await client.post(`/api/user/bookings/${booked.booking.id}/move`, { start: '2026-12-03T14:00:00Z' });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ start: '2026-12-03T14:00:00.000Z', status: 'booked' });
    // Listed once, at its new time (the row it was moved from is not a second booking).
    expect((await client.get('/api/user/bookings')).body.bookings.map((b: { id: number; status: string }) => [b.id, b.status])).toEqual([[moved.body.id, 'booked']]);
    // Call Details: what the call booked, at its new time, saying it was moved and from when.
    expect((await client.get(`/api/user/bookings?callId=${callId}`)).body.bookings).toEqual([expect.objectContaining({
      id: moved.body.id, callId, status: 'booked', start: moved.body.start, spoken: moved.body.spoken, movedFrom: booked.booking.start.toISOString(),
    })]);
    await vi.waitFor(() => expect(outboxTo(server!, CALLER).map((m) => m.body)).toContain('Hale Plumbing: your Boiler service has moved from Wed 2 Dec, 09:00 to Thu 3 Dec, 14:00. Reply C to cancel.'), { timeout: 20_000, interval: 20 });

    const cancelled = await client.post(`/api/user/bookings/${moved.body.id}/cancel`);
    expect(cancelled.body.status).toBe('cancelled');
    expect((await client.post(`/api/user/bookings/${moved.body.id}/cancel`)).status).toBe(404);
    // Call Details follows it still: at its new time, now cancelled.
    expect((await client.get(`/api/user/bookings?callId=${callId}`)).body.bookings).toEqual([expect.objectContaining({ id: moved.body.id, status: 'cancelled', cancelledBy: 'owner', start: moved.body.start })]);
    await vi.waitFor(() => expect(outboxTo(server!, CALLER).map((m) => m.body)).toContain('Hale Plumbing: sorry, your Boiler service on Thu 3 Dec, 14:00 has been cancelled. Please call us to book another time.'), { timeout: 20_000, interval: 20 });
  });

  it('gives Call Details the booking a call made, whatever its day or status, and only the owner\'s', async () => {
    const { client, userId } = await start();
    const service = (await client.post('/api/user/booking/services', { name: 'Boiler service', durationMinutes: 60 })).body;
    const desk = server!.services.booking.desk(userId);
    const offer = await desk.offer({ serviceId: service.id, wish: 'Wednesday morning' });
    if (offer.kind !== 'offered') throw new Error(offer.kind);
    const firstCall = await callFrom(server!.database.db, userId, CALLER);
    const secondCall = await callFrom(server!.database.db, userId, '+447700900303');
    const first = await desk.book({ slotId: offer.slots[0]!.id, callId: firstCall, callerName: 'Kim', callerNumber: CALLER });
    const later = await desk.offer({ serviceId: service.id, wish: 'Wednesday afternoon' });
    if (later.kind !== 'offered') throw new Error(later.kind);
    const second = await desk.book({ slotId: later.slots[0]!.id, callId: secondCall, callerName: 'Sam', callerNumber: '+447700900303' });
    if (first.kind !== 'booked' || second.kind !== 'booked') throw new Error(`${first.kind} ${second.kind}`);
    const ofCall = async (id: number | string) => (await client.get(`/api/user/bookings?callId=${id}`)).body.bookings as { id: number; status: string }[];
    expect((await ofCall(firstCall)).map((b) => b.id)).toEqual([first.booking.id]);
    await client.post(`/api/user/bookings/${second.booking.id}/cancel`);
    expect((await ofCall(secondCall)).map((b) => [b.id, b.status])).toEqual([[second.booking.id, 'cancelled']]);
    // A week on, the list has moved past it; the call still shows what it booked.
    server!.clock.offsetMs += 7 * 86_400_000;
    expect((await client.get('/api/user/bookings')).body.bookings).toEqual([]);
    expect((await ofCall(firstCall)).map((b) => b.id)).toEqual([first.booking.id]);
    // Another owner sees nothing of it; a call id that is not a number is a 400 saying so.
    const other = await activeCustomer(server!, { businessName: 'Other Ltd' });
    expect((await other.client.get(`/api/user/bookings?callId=${firstCall}`)).body.bookings).toEqual([]);
    const bad = await client.get('/api/user/bookings?callId=abc');
    expect([bad.status, bad.body.message]).toEqual([400, 'callId must be a call\'s number, e.g. ?callId=41.']);
  });

  it('connects CalDAV (a wrong password refused in plain words, the password never returned) and serves a revocable feed', async () => {
    const { client, userId } = await start();
    const body = { address: radicale.calendarUrl, username: radicale.user, password: radicale.password };
    const wrong = await client.request('PUT', '/api/user/booking/calendar/caldav', { ...body, password: 'nope' });
    expect([wrong.status, wrong.body.message]).toEqual([400, expect.stringMatching(/^The calendar refused the user name or password/)]);
    expect((await client.post('/api/user/booking/calendar/caldav/test', body)).body).toEqual({ ok: true, calendar: 'Work', message: 'Connected to the calendar "Work".' });
    const connected = await client.request('PUT', '/api/user/booking/calendar/caldav', body);
    expect(connected.body).toEqual({ caldav: { url: radicale.calendarUrl, username: radicale.user }, icalAddressSet: false, feedUrl: null, trouble: null });
    expect(JSON.stringify((await client.get('/api/user/booking/calendar')).body)).not.toContain(radicale.password);

    const service = (await client.post('/api/user/booking/services', { name: 'Boiler service', durationMinutes: 60 })).body;
    const desk = server!.services.booking.desk(userId);
    const offer = await desk.offer({ serviceId: service.id, wish: 'Friday' });
    if (offer.kind !== 'offered') throw new Error(offer.kind);
    const booked = await desk.book({ slotId: offer.slots[0]!.id, callId: await callFrom(server!.database.db, userId, CALLER), callerName: 'Lee', callerNumber: CALLER });
    expect(booked.kind).toBe('booked');

    const first = (await client.post('/api/user/booking/calendar/feed')).body.feedUrl as string;
    const path = new URL(first).pathname;
    const feed = await new ApiClient(server!.url).get(path);
    expect(feed.status).toBe(200);
    const events = new ICAL.Component(ICAL.parse(feed.text)).getAllSubcomponents('vevent').map((v) => new ICAL.Event(v));
    expect(events.map((e) => [e.summary, e.startDate.toJSDate().toISOString()])).toEqual([['Boiler service: Lee', '2026-12-04T09:00:00.000Z']]);
    // Regenerated: the old address stops working at once.
    const second = (await client.post('/api/user/booking/calendar/feed')).body.feedUrl as string;
    expect(second).not.toBe(first);
    expect((await new ApiClient(server!.url).get(path)).status).toBe(404);
    expect((await client.request('DELETE', '/api/user/booking/calendar/caldav')).body.caldav).toBeNull();
  });
});
