// Issue 57 item 4: a pasted iCal address is read once when it is saved, and the owner told what
// was found ("3 busy times in the next 4 weeks, the next Wed 2 Dec, 14:30"); an address that
// cannot be read, or that points inside the box's own network, is a 400 in plain words and
// nothing is saved (an address saved before stays). The loopback refusal is the guard's decision:
// the calendar server behind 127.0.0.1 gets no request. The Calendar tab's trouble: when the
// saved calendar stops answering the desk, GET /api/user/booking/calendar says since when and why.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { activeCustomer } from '../helpers/accounts.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { NOT_ALLOWED_SENTENCE } from '../../core/booking/calendars/guarded-fetch.js';
import { ICAL_GUARD, ICAL_HOST, startLocalIcal, type LocalIcal } from './local-ical.js';

const NOW = Date.parse('2026-12-01T08:00:00Z');
const HOST = ICAL_HOST;

let calendar: LocalIcal;
let port = 0;
let server: TestServer | undefined;

beforeAll(async () => {
  calendar = await startLocalIcal();
  port = calendar.port;
});
afterAll(async () => calendar.close());
afterEach(async () => {
  calendar.setDown(false);
  await server?.close();
  server = undefined;
});

async function start() {
  server = await startTestServer({ booking: { calendarGuard: ICAL_GUARD } });
  server.clock.offsetMs = NOW - Date.now();
  const { client, user } = await activeCustomer(server, { businessName: 'Hale Plumbing' });
  return { client, userId: user.id };
}

const good = () => calendar.good;

describe('saving an iCal address', () => {
  it('reads it once and says what it found', async () => {
    const { client } = await start();
    const saved = await client.request('PUT', '/api/user/booking/calendar/ical', { url: good() });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ icalAddressSet: true, trouble: null, icalFound: 'Your calendar was read: 3 busy times in the next 4 weeks, the next Wed 2 Dec, 14:30. Those times are not offered to callers.' });
    // Only the save's answer carries it.
    expect((await client.get('/api/user/booking/calendar')).body).not.toHaveProperty('icalFound');
  });

  it('refuses an address that cannot be read, in plain words, and keeps the one saved before', async () => {
    const { client } = await start();
    expect((await client.request('PUT', '/api/user/booking/calendar/ical', { url: good() })).status).toBe(200);
    const gone = await client.request('PUT', '/api/user/booking/calendar/ical', { url: `http://${HOST}:${port}/secret/old.ics` });
    expect([gone.status, gone.body.message]).toEqual([400, 'That iCal address could not be read: the iCal address was refused (HTTP 404): paste the current secret address again. Nothing was saved.']);
    const page = await client.request('PUT', '/api/user/booking/calendar/ical', { url: `http://${HOST}:${port}/page` });
    expect([page.status, page.body.message]).toEqual([400, 'That iCal address could not be read: the iCal address did not return a calendar. Nothing was saved.']);
    const unknown = await client.request('PUT', '/api/user/booking/calendar/ical', { url: 'https://calendar.invalid/basic.ics' });
    expect([unknown.status, unknown.body.message]).toEqual([400, 'That iCal address could not be read: calendar.invalid could not be found: check the address was pasted whole. Nothing was saved.']);
    expect((await client.get('/api/user/booking/calendar')).body.icalAddressSet).toBe(true);
  });

  it('refuses a loopback address without a request to it, and never speaks of webhooks', async () => {
    const { client } = await start();
    const before = calendar.hits();
    for (const host of ['127.0.0.1', '[::ffff:127.0.0.1]']) {
      const refused = await client.request('PUT', '/api/user/booking/calendar/ical', { url: `http://${host}:${port}/secret/basic.ics` });
      expect([refused.status, refused.body.message]).toEqual([400, NOT_ALLOWED_SENTENCE]);
      expect(refused.body.message).not.toMatch(/webhook/i);
    }
    expect(calendar.hits()).toBe(before);
    expect((await client.get('/api/user/booking/calendar')).body.icalAddressSet).toBe(false);
  });
});

describe('the calendar that stops answering', () => {
  it('is shown with since when and why while the desk takes requests, and cleared when it answers again', async () => {
    const { client, userId } = await start();
    const service = (await client.post('/api/user/booking/services', { name: 'Boiler service', durationMinutes: 60 })).body as { id: number };
    expect((await client.request('PUT', '/api/user/booking/calendar/ical', { url: good() })).status).toBe(200);
    const desk = server!.services.booking.desk(userId);
    expect((await desk.offer({ serviceId: service.id, wish: 'Friday' })).kind).toBe('offered');
    expect((await client.get('/api/user/booking/calendar')).body.trouble).toBeNull();

    calendar.setDown(true);
    // Past the reader's copy (refreshed every 5 minutes, an hour at most), so the next offer asks the calendar.
    server!.clock.offsetMs += 61 * 60_000;
    const boxNow = () => Date.now() + server!.clock.offsetMs;
    const before = boxNow();
    expect((await desk.offer({ serviceId: service.id, wish: 'Friday' })).kind).toBe('unavailable');
    const after = boxNow();
    const { trouble } = (await client.get('/api/user/booking/calendar')).body as { trouble: { since: string; reason: string } };
    expect(trouble.reason).toBe('the iCal address answered HTTP 500');
    expect(Date.parse(trouble.since)).toBeGreaterThanOrEqual(before);
    expect(Date.parse(trouble.since)).toBeLessThanOrEqual(after);

    calendar.setDown(false);
    expect((await desk.offer({ serviceId: service.id, wish: 'Friday' })).kind).toBe('offered');
    expect((await client.get('/api/user/booking/calendar')).body.trouble).toBeNull();
  });
});
