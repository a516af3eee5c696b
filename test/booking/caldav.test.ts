// Issue 41 item 2, two-way CalDAV against a real Radicale: busy events (a weekly series with an
// exception, an all-day event, one in another time zone, one across the October change) block
// exactly the right slots; a booking appears in Radicale and reads back; a second create of the
// same slot is refused by the server (412); "Test connection" says what is wrong in plain words.
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import ICAL from 'ical.js';
import { fetchCalendarObjects } from 'tsdav';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDeskFactory } from '../../core/booking/agent-booking-adapter.js';
import { putEvent } from '../../core/booking/calendars/caldav.js';
import { connectCalDav, testCalDav } from '../../core/booking/calendars/calendar-settings.js';
import { calendarIcs } from '../../core/booking/calendars/ics-writer.js';
import { caldavAccountOf, ownerCalendars } from '../../core/booking/calendars/owner-calendars.js';
import { saveRules } from '../../core/booking/store/rules.js';
import { openDatabase, type DatabaseHandle } from '../../core/db/client.js';
import { bookingCalendars } from '../helpers/tables.js';
import { putIcs, startRadicale, type Radicale } from '../helpers/radicale.js';
import { BUSY_EVENTS, BUSY_NOW, EXPECTED_OFFERS } from './fixtures-ics.js';
import { callFrom, ownerWithService, quiet, TEST_KEYS } from './fixtures.js';

let radicale: Radicale;
let handle: DatabaseHandle;
let dir: string;
const now = () => BUSY_NOW;
const signal = () => AbortSignal.timeout(10_000);
/** Radicale listens on loopback: the guard's test seam lets it through (and nothing else inside). */
const guard = { allowLoopback: true };

beforeAll(async () => {
  radicale = await startRadicale();
  for (const [name, ics] of Object.entries(BUSY_EVENTS)) await putIcs(radicale, name, ics);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'book-caldav-'));
  handle = openDatabase(path.join(dir, 'appliance.db'));
}, 60_000);

afterAll(async () => {
  await handle?.close();
  await radicale?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function connectedOwner() {
  const { user, service } = await ownerWithService(handle.db);
  await saveRules(handle.db, user.id, { hours: null, noticeMinutes: 120, horizonDays: 28, dailyCap: null }, BUSY_NOW);
  const result = await connectCalDav(handle.db, TEST_KEYS, user.id, { address: radicale.calendarUrl, username: radicale.user, password: radicale.password }, BUSY_NOW, signal(), guard);
  expect(result).toMatchObject({ ok: true, url: radicale.calendarUrl, name: 'Work' });
  const calendar = ownerCalendars({ db: handle.db, keys: TEST_KEYS, now, guard });
  // A generous bound: the shared test machine is loaded; the 1.5 s production bound has its own test.
  const desk = createDeskFactory({ db: handle.db, now, keys: TEST_KEYS, log: quiet, calendar, boundMs: 10_000 })(user.id);
  return { user, service, desk };
}

describe('CalDAV against Radicale', () => {
  it.each(EXPECTED_OFFERS)('"%s" is offered exactly the free slots', async (wish, expected) => {
    const { desk } = await connectedOwner();
    const offer = await desk.offer({ wish });
    expect(offer.kind === 'offered' ? offer.slots.map((s) => s.start.toISOString()) : offer.kind === 'none' ? [] : offer).toEqual(expected);
  });

  it('writes a booking to Radicale as one event a standard client reads back, and the server refuses a second create of the slot', async () => {
    const { user, desk } = await connectedOwner();
    const offer = await desk.offer({ wish: 'the 28th of October' });
    if (offer.kind !== 'offered') throw new Error(offer.kind);
    const slot = offer.slots[0]!;
    const call = await callFrom(handle.db, user.id, '+447700900011');
    const booked = await desk.book({ slotId: slot.id, callId: call, callerName: 'Gus', callerNumber: '+447700900011' });
    expect(booked.kind).toBe('booked');

    const auth = { authorization: `Basic ${Buffer.from(`${radicale.user}:${radicale.password}`).toString('base64')}` };
    const objects = await fetchCalendarObjects({ calendar: { url: radicale.calendarUrl }, headers: auth, urlFilter: (u) => u.includes(`booking-${user.id}-`) });
    expect(objects).toHaveLength(1);
    const event = new ICAL.Event(new ICAL.Component(ICAL.parse(objects[0]!.data as string)).getFirstSubcomponent('vevent')!);
    expect(event.summary).toBe('Boiler service: Gus');
    expect(event.startDate.toJSDate().toISOString()).toBe(slot.start.toISOString());
    expect(event.endDate.toJSDate().toISOString()).toBe(slot.end.toISOString());

    // The same slot's event again: the server refuses it (If-None-Match: *).
    const account = (await caldavAccountOf(handle.db, TEST_KEYS, user.id))!;
    const filename = objects[0]!.url.split('/').pop()!;
    const again = calendarIcs([{ uid: event.uid, summary: 'Someone else', start: slot.start, end: slot.end, stamp: BUSY_NOW }]);
    expect(await putEvent(account, filename, again, signal(), guard)).toBe('taken');
    // And the booked time now blocks the slot for the next caller.
    const next = await desk.offer({ wish: 'the 28th of October' });
    if (next.kind !== 'offered') throw new Error(`expected other times on the 28th, got ${next.kind}`);
    expect(next.slots.map((s) => s.start.getTime())).not.toContain(slot.start.getTime());
  });

  it('keeps the app password sealed at rest', async () => {
    const { user } = await connectedOwner();
    const [row] = await handle.db.select().from(bookingCalendars).where(eq(bookingCalendars.userId, user.id));
    expect(row!.caldavPasswordSealed).not.toContain(radicale.password);
    expect((await caldavAccountOf(handle.db, TEST_KEYS, user.id))!.password).toBe(radicale.password);
  });

  it('"Test connection" says what is wrong in plain words', async () => {
    const good = { address: radicale.calendarUrl, username: radicale.user, password: radicale.password };
    // The server's own address: the calendar is found under it.
    expect(await testCalDav({ ...good, address: `${radicale.url}/` }, signal(), guard)).toMatchObject({ ok: true, url: `${radicale.url}/owner/work/` });
    expect(await testCalDav({ ...good, password: 'wrong' }, signal(), guard)).toMatchObject({ ok: false, problem: 'wrong-password', message: expect.stringMatching(/^The calendar refused the user name or password/) });
    expect(await testCalDav({ ...good, address: `${radicale.url}/owner/work/weekly.ics` }, signal(), guard)).toMatchObject({ ok: false, problem: 'not-a-calendar' });
    const closed = await new Promise<number>((resolve) => { const s = net.createServer().listen(0, '127.0.0.1', () => { const p = (s.address() as { port: number }).port; s.close(() => resolve(p)); }); });
    expect(await testCalDav({ ...good, address: `http://127.0.0.1:${closed}/` }, signal(), guard)).toMatchObject({ ok: false, problem: 'unreachable', message: expect.stringMatching(/^The calendar cannot be reached/) });
  });

  it('Radicale stopped: offer and book answer unavailable (with the reason for the owner), nothing written', async () => {
    const own = await startRadicale();
    try {
      const { user } = await ownerWithService(handle.db);
      expect((await connectCalDav(handle.db, TEST_KEYS, user.id, { address: own.calendarUrl, username: own.user, password: own.password }, BUSY_NOW, signal(), guard)).ok).toBe(true);
      const desk = createDeskFactory({ db: handle.db, now, keys: TEST_KEYS, log: quiet, calendar: ownerCalendars({ db: handle.db, keys: TEST_KEYS, now, guard }) })(user.id);
      const offer = await desk.offer({ wish: 'the 28th of October' });
      if (offer.kind !== 'offered') throw new Error(offer.kind);
      await own.stop();
      // The claim always asks the calendar afresh.
      const call = await callFrom(handle.db, user.id, '+447700900012');
      expect((await desk.book({ slotId: offer.slots[0]!.id, callId: call, callerName: 'Hal', callerNumber: '+447700900012' })).kind).toBe('unavailable');
      // Offers may use a read up to a minute old (OFFER_CACHE_MS); past it (a fresh reader here), the diary is unavailable.
      const later = createDeskFactory({ db: handle.db, now, keys: TEST_KEYS, log: quiet, calendar: ownerCalendars({ db: handle.db, keys: TEST_KEYS, now, guard }) })(user.id);
      expect(await later.offer({ wish: 'the 28th of October' })).toMatchObject({ kind: 'unavailable', reason: expect.stringMatching(/cannot be reached/) });
      expect(await desk.findByCaller('+447700900012')).toEqual([]);
    } finally {
      await own.stop();
    }
  });

  it('re-reads the calendar for the slot just before the claim: an event added after the offer makes it taken', async () => {
    const { user, desk } = await connectedOwner();
    const offer = await desk.offer({ wish: 'the 30th of October morning' });
    if (offer.kind !== 'offered') throw new Error(offer.kind);
    const slot = offer.slots[0]!;
    // The owner puts something in their calendar over that slot while the caller is deciding.
    await putIcs(radicale, `late-${user.id}.ics`, calendarIcs([{ uid: `late-${user.id}`, summary: 'Dentist', start: slot.start, end: slot.end, stamp: BUSY_NOW }]));
    const call = await callFrom(handle.db, user.id, '+447700900013');
    const result = await desk.book({ slotId: slot.id, callId: call, callerName: 'Ivy', callerNumber: '+447700900013' });
    expect(result.kind).toBe('taken');
    expect(result.kind === 'taken' && result.next.map((s) => s.start.getTime())).not.toContain(slot.start.getTime());
    expect(await desk.findByCaller('+447700900013')).toEqual([]);
  });
});
