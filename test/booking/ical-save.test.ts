// Issue 57 item 4: a pasted iCal address is read once when it is saved, and the owner told what
// was found ("3 busy times in the next 4 weeks, the next Wed 2 Dec, 14:30"); an address that
// cannot be read, or that points inside the box's own network, is a 400 in plain words and
// nothing is saved (an address saved before stays). The loopback refusal is the guard's decision:
// the calendar server behind 127.0.0.1 gets no request. The Calendar tab's trouble: when the
// saved calendar stops answering the desk, GET /api/user/booking/calendar says since when and why.
import http from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { activeCustomer } from '../helpers/accounts.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const NOW = Date.parse('2026-12-01T08:00:00Z');
/** The name the test's resolver gives the local calendar server; only it may be reached on loopback. */
const HOST = 'calendar.test';

const event = (uid: string, start: string, end: string) => ['BEGIN:VEVENT', `UID:${uid}`, 'DTSTAMP:20261101T000000Z', `DTSTART:${start}`, `DTEND:${end}`, 'SUMMARY:Busy', 'END:VEVENT'];
const FEED = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//test//feed//EN',
  ...event('a', '20261203T100000Z', '20261203T110000Z'),
  ...event('b', '20261202T143000Z', '20261202T150000Z'),
  ...event('c', '20261214T090000Z', '20261214T100000Z'),
  ...event('far', '20270201T090000Z', '20270201T100000Z'),
  'END:VCALENDAR', ''].join('\r\n');

let calendar: http.Server;
let port = 0;
let hits = 0;
let down = false;
let server: TestServer | undefined;

beforeAll(async () => {
  calendar = http.createServer((req, res) => {
    hits++;
    if (down) return void res.writeHead(500).end();
    if (req.url === '/secret/basic.ics') return void res.writeHead(200, { 'content-type': 'text/calendar' }).end(FEED);
    if (req.url === '/page') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>Sign in</body></html>');
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => calendar.listen(0, '127.0.0.1', r));
  port = (calendar.address() as { port: number }).port;
});
afterAll(async () => { await new Promise((r) => calendar.close(r)); });
afterEach(async () => {
  down = false;
  await server?.close();
  server = undefined;
});

async function start() {
  server = await startTestServer({
    booking: {
      icalGuard: {
        // No DNS leaves the box: the one name the test serves resolves to the local server, any other is not found.
        resolver: async (host) => {
          if (host === HOST) return [{ address: '127.0.0.1', family: 4 }];
          throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
        },
        allowLoopback: (host) => host === HOST,
      },
    },
  });
  server.clock.offsetMs = NOW - Date.now();
  const { client, user } = await activeCustomer(server, { businessName: 'Hale Plumbing' });
  return { client, userId: user.id };
}

const good = () => `http://${HOST}:${port}/secret/basic.ics`;

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
    const before = hits;
    // URL writes an IPv4-mapped address in hex; the guard judges it as the IPv4 address it carries.
    for (const [host, said] of [['127.0.0.1', '127.0.0.1'], ['[::ffff:127.0.0.1]', '::ffff:7f00:1']]) {
      const refused = await client.request('PUT', '/api/user/booking/calendar/ical', { url: `http://${host}:${port}/secret/basic.ics` });
      expect([refused.status, refused.body.message]).toEqual([400, `That iCal address could not be read: it is not a public internet address (${said} is a loopback address), and the box reads calendars only on the public internet; paste the address your calendar provider gives you. Nothing was saved.`]);
      expect(refused.body.message).not.toMatch(/webhook/i);
    }
    expect(hits).toBe(before);
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

    down = true;
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

    down = false;
    expect((await desk.offer({ serviceId: service.id, wish: 'Friday' })).kind).toBe('offered');
    expect((await client.get('/api/user/booking/calendar')).body.trouble).toBeNull();
  });
});
