// Issue 41 item 2, the embedded default: the owner's pasted secret iCal address, served here by
// a local HTTP server with the same busy events as the Radicale test, fetched through the
// webhooks' SSRF guard, cached, and expanded on the box: the same slots are blocked.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDeskFactory } from '../../core/booking/agent-booking-adapter.js';
import { setIcalAddress } from '../../core/booking/calendars/calendar-settings.js';
import { NOT_ALLOWED_SENTENCE } from '../../core/booking/calendars/guarded-fetch.js';
import { createIcalAddressReader } from '../../core/booking/calendars/ical-address.js';
import { ownerCalendars } from '../../core/booking/calendars/owner-calendars.js';
import { saveRules } from '../../core/booking/store/rules.js';
import { openDatabase, type DatabaseHandle } from '../../core/db/client.js';
import { BUSY_EVENTS, BUSY_NOW, EXPECTED_OFFERS } from './fixtures-ics.js';
import { ownerWithService, quiet, TEST_KEYS } from './fixtures.js';

/** The events as one feed, as Google or Outlook publish them: one VCALENDAR holding every zone and event. */
const inner = (ics: string) => ics.split('\r\n').filter((l) => l && !/^(BEGIN:VCALENDAR|END:VCALENDAR|VERSION:|PRODID:)/.test(l));
const seenZones = new Set<string>();
const FEED = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//test//feed//EN', ...Object.values(BUSY_EVENTS).flatMap((ics) => {
  // One VTIMEZONE per zone in a feed.
  const lines = inner(ics);
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (lines[i] === 'BEGIN:VTIMEZONE') {
      const end = lines.indexOf('END:VTIMEZONE', i);
      const tzid = lines[i + 1]!;
      if (!seenZones.has(tzid)) out.push(...lines.slice(i, end + 1));
      seenZones.add(tzid);
      i = end;
    } else out.push(lines[i]!);
  }
  return out;
}), 'END:VCALENDAR', ''].join('\r\n');

let server: http.Server;
let url: string;
let hits = 0;
let handle: DatabaseHandle;
let dir: string;
const now = () => BUSY_NOW;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    hits++;
    if (req.url === '/old') return void res.writeHead(302, { location: '/private-abc/basic.ics' }).end();
    if (req.url !== '/private-abc/basic.ics') return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/calendar' }).end(FEED);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'book-ical-'));
  handle = openDatabase(path.join(dir, 'appliance.db'));
});

afterAll(async () => {
  await handle.close();
  await new Promise((r) => server.close(r));
  fs.rmSync(dir, { recursive: true, force: true });
});

async function deskFor(address: string, guard = { allowLoopback: true }) {
  const { user } = await ownerWithService(handle.db);
  await saveRules(handle.db, user.id, { hours: null, noticeMinutes: 120, horizonDays: 28, dailyCap: null }, BUSY_NOW);
  await setIcalAddress(handle.db, TEST_KEYS, user.id, address, BUSY_NOW);
  const icalAddress = createIcalAddressReader({ now, guard, log: quiet });
  const calendar = ownerCalendars({ db: handle.db, keys: TEST_KEYS, now, guard, icalAddress });
  return createDeskFactory({ db: handle.db, now, keys: TEST_KEYS, log: quiet, calendar, boundMs: 10_000 })(user.id);
}

describe('the pasted iCal address', () => {
  it('blocks exactly the same slots as the same events in CalDAV, fetched once and then cached', async () => {
    const desk = await deskFor(`${url}/old`);
    const before = hits;
    for (const [wish, expected] of EXPECTED_OFFERS) {
      const offer = await desk.offer({ wish });
      expect([wish, offer.kind === 'offered' ? offer.slots.map((s) => s.start.toISOString()) : offer.kind === 'none' ? [] : offer]).toEqual([wish, expected]);
    }
    // One redirect and one fetch for all nine offers.
    expect(hits - before).toBe(2);
  });

  it('is refused by the address guard when it points inside the network, in a calendar\'s words (never a webhook\'s), nothing sent', async () => {
    const desk = await deskFor(`${url}/private-abc/basic.ics`, { allowLoopback: false });
    const before = hits;
    const offer = await desk.offer({ wish: 'tomorrow' });
    expect(offer).toMatchObject({ kind: 'unavailable', reason: expect.stringContaining(NOT_ALLOWED_SENTENCE) });
    expect(JSON.stringify(offer)).not.toMatch(/webhook/i);
    expect(hits - before).toBe(0);
  });

  it('a wrong address makes the diary unavailable, never silently free', async () => {
    const desk = await deskFor(`${url}/private-xyz/basic.ics`);
    expect(await desk.offer({ wish: 'tomorrow' })).toMatchObject({ kind: 'unavailable', reason: expect.stringMatching(/refused \(HTTP 404\)/) });
  });
});
