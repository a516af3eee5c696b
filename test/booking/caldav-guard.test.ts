// Issue 53 item 1: CalDAV goes through the address guard. The target is a loopback HTTP server
// that must receive no request: "Test connection", connect, a saved address's REPORT, PUT and
// DELETE, and a redirect from an allowed host to loopback are all refused before connecting,
// in one sentence that is the same for an open port and a closed one. Also: the test route's
// per-owner limit, a user:password@ address refused without being echoed, an iCal address
// inside the network refused on save. No test seam lets loopback through here: the one allowed
// host is named by the operator's setting (CALENDAR_ALLOWED_PRIVATE_HOSTS) and resolved by a stub.
import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NOT_ALLOWED_SENTENCE } from '../../core/booking/calendars/guarded-fetch.js';
import { ownerCalendars } from '../../core/booking/calendars/owner-calendars.js';
import { seal } from '../../core/booking/calendars/secret-box.js';
import { RATE_LIMITS } from '../../core/http/rate-limits.js';
import { systemResolver } from '../../core/webhooks/address-guard.js';
import { activeCustomer } from '../helpers/accounts.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { bookingCalendars } from '../helpers/tables.js';

/** A loopback server that counts what reaches it: the address nothing may be sent to. */
async function countingServer(answer: (req: http.IncomingMessage, res: http.ServerResponse) => void) {
  const seen: string[] = [];
  const server = http.createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    answer(req, res);
  });
  // Dual-stack, so 127.0.0.1, ::1 and ::ffff:127.0.0.1 all reach it.
  await new Promise<void>((r) => server.listen(0, '::', r));
  return { seen, port: (server.address() as net.AddressInfo).port, close: () => new Promise((r) => server.close(r)) };
}

const closedPort = () => new Promise<number>((resolve) => {
  const s = net.createServer().listen(0, '127.0.0.1', () => {
    const p = (s.address() as net.AddressInfo).port;
    s.close(() => resolve(p));
  });
});

let server: TestServer;
let target: Awaited<ReturnType<typeof countingServer>>;
let redirector: Awaited<ReturnType<typeof countingServer>>;

beforeAll(async () => {
  // Any answer at all would be a leak: a CalDAV-looking 207 from the target.
  target = await countingServer((_req, res) => res.writeHead(207, { 'content-type': 'application/xml' }).end('<?xml version="1.0"?><d:multistatus xmlns:d="DAV:"/>'));
  // The operator's allowed LAN calendar, which redirects each request to loopback.
  redirector = await countingServer((req, res) => {
    const to = req.url?.startsWith('/to-localhost') ? `http://localhost:${target.port}/dav/` : `http://127.0.0.1:${target.port}/dav/`;
    res.writeHead(req.url?.startsWith('/moved') ? 301 : 307, { location: to }).end();
  });
  server = await startTestServer({
    env: { CALENDAR_ALLOWED_PRIVATE_HOSTS: 'calendar.lan' },
    // Every other name (localhost among them) is resolved by the system, as in production.
    booking: { pollMs: 50, calendarGuard: { resolver: async (host) => (host === 'calendar.lan' ? [{ address: '127.0.0.1', family: 4 }] : systemResolver(host)) } },
  });
});

afterAll(async () => {
  await server?.close();
  await target?.close();
  await redirector?.close();
});

const body = (address: string) => ({ address, username: 'owner', password: 'app-password-1' });
const refused = { ok: false, problem: 'not-allowed', message: NOT_ALLOWED_SENTENCE };

describe('CalDAV through the address guard', () => {
  it('"Test connection" refuses every spelling of loopback in one sentence, and the loopback server receives nothing', async () => {
    const { client } = await activeCustomer(server, { businessName: 'Hale Plumbing' });
    const before = target.seen.length;
    for (const host of ['127.0.0.1', 'localhost', '127.1', '2130706433', '[::1]', '[::ffff:127.0.0.1]', '0.0.0.0']) {
      const res = await client.post('/api/user/booking/calendar/caldav/test', body(`http://${host}:${target.port}/dav/`));
      expect([host, res.status, res.body]).toEqual([host, 200, refused]);
    }
    expect(target.seen.slice(before)).toEqual([]);
  });

  it('an open port and a closed one get the same answer', async () => {
    const { client } = await activeCustomer(server, { businessName: 'Port Scan Ltd' });
    const open = await client.post('/api/user/booking/calendar/caldav/test', body(`http://127.0.0.1:${target.port}/`));
    const closed = await client.post('/api/user/booking/calendar/caldav/test', body(`http://127.0.0.1:${await closedPort()}/`));
    expect(closed.body).toEqual(open.body);
    expect(open.body).toEqual(refused);
  });

  it('a redirect from an allowed host to loopback is refused: the allowed host asked once, the loopback server never', async () => {
    const { client } = await activeCustomer(server, { businessName: 'Redirect Ltd' });
    const targetBefore = target.seen.length;
    for (const path of ['/dav/', '/moved/', '/to-localhost/']) {
      const redirBefore = redirector.seen.length;
      const res = await client.post('/api/user/booking/calendar/caldav/test', body(`http://calendar.lan:${redirector.port}${path}`));
      expect([path, res.body]).toEqual([path, refused]);
      expect(redirector.seen.slice(redirBefore)).toEqual([`PROPFIND ${path}`]);
    }
    expect(target.seen.slice(targetBefore)).toEqual([]);
  });

  it('connect stores nothing for a refused address (400 in the same sentence)', async () => {
    const { client } = await activeCustomer(server, { businessName: 'Store Nothing Ltd' });
    const before = target.seen.length;
    const res = await client.request('PUT', '/api/user/booking/calendar/caldav', body(`http://[::1]:${target.port}/dav/`));
    expect([res.status, res.body.message]).toEqual([400, NOT_ALLOWED_SENTENCE]);
    expect((await client.get('/api/user/booking/calendar')).body.caldav).toBeNull();
    expect(target.seen.slice(before)).toEqual([]);
  });

  it('a saved address inside the network (stored before this guard) gets no REPORT, PUT or DELETE', async () => {
    const { user } = await activeCustomer(server, { businessName: 'Saved Before Ltd' });
    const keys = server.services.booking.keys;
    await server.database.db.insert(bookingCalendars).values({ userId: user.id, caldavUrl: `http://127.0.0.1:${target.port}/dav/`, caldavUser: 'owner', caldavPasswordSealed: seal(keys.seal, 'app-password-1'), updatedAt: new Date() });
    const calendar = ownerCalendars({ db: server.database.db, keys, now: () => new Date(), guard: server.services.booking.calendarGuard });
    const before = target.seen.length;
    const signal = () => AbortSignal.timeout(10_000);
    const start = Date.parse('2026-12-02T10:00:00Z');
    await expect(calendar.busy(user.id, start, start + 86_400_000, { boundMs: 10_000 })).rejects.toThrow(NOT_ALLOWED_SENTENCE);
    await expect(calendar.put({ bookingId: 1, ownerId: user.id, uid: 'booking-x', summary: 'Boiler service: Lee', description: '', start, end: start + 3_600_000 }, signal())).rejects.toThrow(NOT_ALLOWED_SENTENCE);
    await expect(calendar.remove(user.id, 'booking-x', signal())).rejects.toThrow(NOT_ALLOWED_SENTENCE);
    expect(target.seen.slice(before)).toEqual([]);
  });

  it('an address holding user:password@ is refused with a 400 that does not echo it', async () => {
    const { client } = await activeCustomer(server, { businessName: 'Userinfo Ltd' });
    const res = await client.post('/api/user/booking/calendar/caldav/test', body('https://owner:s3cret-Pa55@calendar.lan:1/dav/'));
    expect([res.status, res.body.message]).toEqual([400, 'The CalDAV address must not contain a user name or password: type them in their own boxes.']);
    expect(res.text).not.toContain('s3cret-Pa55');
  });

  it('an iCal address inside the network is refused on save, as CalDAV\'s is (never in a webhook\'s words)', async () => {
    const { client } = await activeCustomer(server, { businessName: 'Ical Loopback Ltd' });
    const before = target.seen.length;
    const res = await client.request('PUT', '/api/user/booking/calendar/ical', { url: `http://localhost:${target.port}/private/basic.ics` });
    expect([res.status, res.body.message]).toEqual([400, NOT_ALLOWED_SENTENCE]);
    expect(res.text).not.toMatch(/webhook/i);
    expect((await client.get('/api/user/booking/calendar')).body.icalAddressSet).toBe(false);
    expect(target.seen.slice(before)).toEqual([]);
  });

  it('"Test connection" is limited per owner: past the limit a 429, while another owner still tests', async () => {
    const { client } = await activeCustomer(server, { businessName: 'Many Tests Ltd' });
    const { max } = RATE_LIMITS.calendarTestsPerOwner;
    for (let i = 0; i < max; i++) expect((await client.post('/api/user/booking/calendar/caldav/test', body(`http://127.0.0.1:${target.port}/`))).status).toBe(200);
    const over = await client.post('/api/user/booking/calendar/caldav/test', body(`http://127.0.0.1:${target.port}/`));
    expect([over.status, over.body.message]).toEqual([429, expect.stringMatching(/^Too many attempts\. Please wait \d+ minutes? and try again\.$/)]);
    const { client: other } = await activeCustomer(server, { businessName: 'Other Owner Ltd' });
    expect((await other.post('/api/user/booking/calendar/caldav/test', body(`http://127.0.0.1:${target.port}/`))).status).toBe(200);
  });
});
