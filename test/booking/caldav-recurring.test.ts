// Issue 53 item 3: calendars that do not expand recurrences in a time-range query. On Xandikos a
// weekly series that began before the window is missing from a time-range REPORT, so the box
// must fetch recurring masters whatever their range and expand them itself; and it keeps the
// objects it fetched by ETag, so a later read asks only whether the collection changed. Proven
// on a real Radicale and a real Xandikos, each behind a loopback proxy that counts requests.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDeskFactory } from '../../core/booking/agent-booking-adapter.js';
import { createOwnerBookingFactory } from '../../core/booking/owner-booking.js';
import { OFFER_CACHE_MS } from '../../core/booking/calendars/calendar-gate.js';
import { connectCalDav } from '../../core/booking/calendars/calendar-settings.js';
import { calendarIcs } from '../../core/booking/calendars/ics-writer.js';
import { ownerCalendars } from '../../core/booking/calendars/owner-calendars.js';
import type { CalendarGuard } from '../../core/booking/calendars/guarded-fetch.js';

/** The calendars here are real servers on loopback, reached through the test seam the guard keeps for tests. */
const LOOPBACK: CalendarGuard = { allowLoopback: true };
import { saveRules } from '../../core/booking/store/rules.js';
import { openDatabase, type DatabaseHandle } from '../../core/db/client.js';
import { startCountingProxy, type CountingProxy } from '../helpers/counting-proxy.js';
import { putIcs, startRadicale, type Radicale } from '../helpers/radicale.js';
import { startXandikos } from '../helpers/xandikos.js';
import { BUSY_NOW } from './fixtures-ics.js';
import { callFrom, ownerWithService, quiet, TEST_KEYS } from './fixtures.js';

// Every Tuesday 10:00–11:00 London since 15 September 2026, a month before "now" (Monday 19 October).
const SERIES = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//test//busy//EN',
  'BEGIN:VEVENT', 'UID:weekly-since-september', 'DTSTAMP:20260901T000000Z', 'DTSTART;TZID=Europe/London:20260915T100000', 'DTEND;TZID=Europe/London:20260915T110000',
  'RRULE:FREQ=WEEKLY;BYDAY=TU', 'SUMMARY:Weekly meeting', 'END:VEVENT', 'END:VCALENDAR', ''].join('\r\n');
const TUESDAY_MORNING = 'the 20th of October morning';
// The series at 10:00 BST (09:00 UTC) leaves 08:00 and 10:00 on; 08:30, 09:00 and 09:30 overlap it.
const FREE_TUESDAY = ['2026-10-20T08:00:00.000Z', '2026-10-20T10:00:00.000Z', '2026-10-20T10:30:00.000Z'];

// What a read after one new event asks: Radicale sends the changed event's text with the
// sync-collection answer; Xandikos sends only its ETag, so that one event is fetched by multiget.
const servers: Array<{ name: string; start: () => Promise<Radicale>; afterOneNew: string[] }> = [
  { name: 'Radicale', start: startRadicale, afterOneNew: ['REPORT sync-collection 1'] },
  { name: 'Xandikos', start: startXandikos, afterOneNew: ['REPORT sync-collection 0', 'REPORT calendar-multiget 1'] },
];

let handle: DatabaseHandle;
let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'book-recur-'));
  handle = openDatabase(path.join(dir, 'appliance.db'));
});
afterAll(async () => {
  await handle?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe.each(servers)('a weekly series that began last month, on a real $name', ({ start, afterOneNew }) => {
  let server: Radicale;
  let proxy: CountingProxy;
  let at = BUSY_NOW.getTime();
  const now = () => new Date(at);
  beforeAll(async () => {
    server = await start();
    await putIcs(server, 'weekly.ics', SERIES);
    proxy = await startCountingProxy(server.url);
  }, 60_000);
  afterAll(async () => {
    await proxy?.close();
    await server?.stop();
  });

  async function connectedOwner() {
    const { user, service } = await ownerWithService(handle.db);
    await saveRules(handle.db, user.id, { hours: null, noticeMinutes: 120, horizonDays: 28, dailyCap: null }, now());
    const address = server.calendarUrl.replace(server.url, proxy.url);
    expect(await connectCalDav(handle.db, TEST_KEYS, user.id, { address, username: server.user, password: server.password }, now(), AbortSignal.timeout(10_000), LOOPBACK)).toMatchObject({ ok: true });
    const calendar = ownerCalendars({ db: handle.db, keys: TEST_KEYS, now, guard: LOOPBACK });
    // A generous bound: the shared test machine is loaded; the production bound has its own test.
    const desk = createDeskFactory({ db: handle.db, now, keys: TEST_KEYS, log: quiet, calendar, boundMs: 10_000 })(user.id);
    return { user, service, desk };
  }

  const offered = async (desk: Awaited<ReturnType<typeof connectedOwner>>['desk'], wish: string) => {
    const offer = await desk.offer({ wish });
    return offer.kind === 'offered' ? offer.slots.map((s) => s.start.toISOString()) : offer.kind === 'none' ? [] : offer;
  };

  it('blocks this week\'s occurrence, and a claim of it is refused', async () => {
    at = BUSY_NOW.getTime();
    const { user, service, desk } = await connectedOwner();
    expect(await offered(desk, TUESDAY_MORNING)).toEqual(FREE_TUESDAY);
    // 10:00 BST on the 20th is inside the meeting: the claim, which reads the calendar afresh, refuses it as taken.
    const owner = createOwnerBookingFactory({ db: handle.db, now, keys: TEST_KEYS, log: quiet, calendar: ownerCalendars({ db: handle.db, keys: TEST_KEYS, now, guard: LOOPBACK }), boundMs: 10_000 })(user.id);
    const call = await callFrom(handle.db, user.id, '+447700900021');
    const claim = await owner.bookForCall({ callId: call, serviceId: service.id, start: Date.parse('2026-10-20T09:00:00Z'), callerName: 'Jo', callerNumber: '+447700900021' });
    expect(claim.kind).toBe('taken');
  });

  it('a later offer asks only whether the calendar changed, and then fetches only what changed', async () => {
    at = BUSY_NOW.getTime();
    const { user, desk } = await connectedOwner();
    expect(await offered(desk, TUESDAY_MORNING)).toEqual(FREE_TUESDAY);
    // Past the offers' shared minute, so the calendar is asked again.
    at += OFFER_CACHE_MS + 60_000;
    const before = proxy.seen.length;
    expect(await offered(desk, TUESDAY_MORNING)).toEqual(FREE_TUESDAY);
    const unchanged = proxy.seen.slice(before);
    // One question (RFC 6578 sync-collection since the copy's token), and no event in its answer.
    expect(unchanged.map((r) => `${r.method} ${r.root} ${r.events}`)).toEqual(['REPORT sync-collection 0']);

    // Something new in the owner's calendar (written straight to the server, as their phone would).
    await putIcs(server, `dentist-${user.id}.ics`, calendarIcs([{ uid: `dentist-${user.id}`, summary: 'Dentist', start: new Date('2026-10-20T07:30:00Z'), end: new Date('2026-10-20T08:30:00Z'), stamp: now() }]));
    at += OFFER_CACHE_MS + 60_000;
    const mark = proxy.seen.length;
    expect(await offered(desk, TUESDAY_MORNING)).toEqual(['2026-10-20T10:00:00.000Z', '2026-10-20T10:30:00.000Z']);
    // Only the one new event comes back; nothing unchanged is fetched again.
    expect(proxy.seen.slice(mark).map((r) => `${r.method} ${r.root} ${r.events}`)).toEqual(afterOneNew);
  });
});
