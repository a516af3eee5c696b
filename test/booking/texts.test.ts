// Issue 41 item 5: the caller's booking texts on the caller-texts road and the durable jobs: a
// confirmation once, the evening-before reminder at 18:00 London (here across the October
// change), a reply "C" that cancels the next booking, frees the slot and tells the owner, and
// STOP/START untouched. Through the real server, its jobs and the local inbox.
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { bookingTextKey } from '../../core/booking/service.js';
import { bookings, bookingServices, callerOptOuts, jobs, notifications } from '../helpers/tables.js';
import { startLocalInbox, type LocalInbox } from '../../core/followup/local-inbox.js';
import { activeCustomer } from '../helpers/accounts.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { dropText, giveNumber, outboxTo, ownerTextsTo } from '../caller-texts/helpers.js';
import { callFrom } from './fixtures.js';

const DID = '+447700900050';
const CALLER = '+447700900301';
const OWNER_PHONE = '+447700900123';

let server: TestServer | undefined;
let inbox: LocalInbox | undefined;
afterEach(async () => {
  await inbox?.stop();
  await server?.services.booking.stop();
  await server?.services.callerTexts.stop();
  await server?.close();
  server = inbox = undefined;
});

/** The server's clock set to `iso` (it runs on from there). */
const setClock = (iso: string) => { server!.clock.offsetMs = Date.parse(iso) - Date.now(); };

async function start() {
  server = await startTestServer({ booking: { pollMs: 50 } });
  setClock('2026-10-20T10:00:00Z');
  server.services.callerTexts.start();
  server.services.booking.start();
  inbox = startLocalInbox(server.services, { watch: false });
  const { user } = await activeCustomer(server, { businessName: 'Hale Plumbing' });
  await giveNumber(server, user.id, DID);
  await server.database.db.insert(bookingServices).values({ userId: user.id, name: 'Boiler service', durationMinutes: 60 });
  return user.id;
}

async function bookMonday(userId: number) {
  const desk = server!.services.booking.desk(userId);
  const offer = await desk.offer({ wish: 'Monday the 26th of October' });
  if (offer.kind !== 'offered') throw new Error(offer.kind);
  const callId = await callFrom(server!.database.db, userId, CALLER);
  const result = await desk.book({ slotId: offer.slots[0]!.id, callId, callerName: 'Jo', callerNumber: CALLER });
  if (result.kind !== 'booked') throw new Error(result.kind);
  return { result, offer, desk, callId };
}

describe('booking texts to the caller', () => {
  it('confirms once, reminds at 18:00 London the evening before (after the clocks went back), once', async () => {
    const userId = await start();
    const { result, desk, offer, callId } = await bookMonday(userId);
    expect(result.booking.start.toISOString()).toBe('2026-10-26T09:00:00.000Z');
    await vi.waitFor(() => expect(outboxTo(server!, CALLER)).toHaveLength(1), { timeout: 20_000, interval: 20 });
    const confirmation = outboxTo(server!, CALLER)[0]!;
    expect(confirmation.from).toBe(DID);
    const [words, link] = confirmation.body.split(' Add to your calendar: ');
    expect(words).toBe("Hale Plumbing: you're booked for Boiler service on Mon 26 Oct, 09:00. Reply C to cancel.");
    // The link opens this one booking as an .ics; an altered one opens nothing.
    const ics = await fetch(server!.url + new URL(link!).pathname);
    expect([ics.status, ics.headers.get('content-type')]).toEqual([200, 'text/calendar; charset=utf-8']);
    expect(await ics.text()).toMatch(/DTSTART:20261026T090000Z[\s\S]*SUMMARY:Boiler service with Hale Plumbing/);
    expect((await fetch(server!.url + new URL(link!).pathname.replace(/\/(\d+)\./, (_m, id: string) => `/${Number(id) + 1}.`))).status).toBe(404);
    // A retried book from the same call: no second booking, no second text.
    await desk.book({ slotId: offer.slots[0]!.id, callId, callerName: 'Jo', callerNumber: CALLER });
    const [reminder] = await server!.database.db.select().from(jobs).where(eq(jobs.key, bookingTextKey('reminder', result.booking.id)));
    // Sunday 25 October 18:00 GMT (the clocks went back that morning).
    expect(reminder!.runAt.toISOString()).toBe('2026-10-25T18:00:00.000Z');
    setClock('2026-10-25T17:59:00Z');
    await vi.waitFor(async () => expect((await server!.services.booking.queue.byKey(bookingTextKey('confirm', result.booking.id)))?.status).toBe('done'), { timeout: 20_000, interval: 20 });
    expect(outboxTo(server!, CALLER)).toHaveLength(1);
    setClock('2026-10-25T18:00:01Z');
    await vi.waitFor(() => expect(outboxTo(server!, CALLER)).toHaveLength(2), { timeout: 20_000, interval: 20 });
    expect(outboxTo(server!, CALLER)[1]!.body).toBe('Hale Plumbing: a reminder of your Boiler service tomorrow, Mon 26 Oct, 09:00. Reply C to cancel.');
  });

  it('a reply C cancels the next booking, frees the slot, tells the caller and the owner; STOP still stops', async () => {
    const userId = await start();
    const { result, desk, offer } = await bookMonday(userId);
    await vi.waitFor(() => expect(outboxTo(server!, CALLER)).toHaveLength(1), { timeout: 20_000, interval: 20 });
    dropText(server!, 'c1.json', { from: CALLER, to: DID, body: 'C' });
    await inbox!.scan();
    const [row] = await server!.database.db.select().from(bookings).where(eq(bookings.id, result.booking.id));
    expect([row!.status, row!.cancelledBy]).toEqual(['cancelled', 'caller']);
    await vi.waitFor(() => expect(outboxTo(server!, CALLER)).toHaveLength(2), { timeout: 20_000, interval: 20 });
    expect(outboxTo(server!, CALLER)[1]!.body).toBe('Hale Plumbing: your Boiler service on Mon 26 Oct, 09:00 is cancelled.');
    await vi.waitFor(() => expect(ownerTextsTo(server!, OWNER_PHONE).map((m) => m.body)).toEqual(['Jo (+447700900301) cancelled their booking on Mon 26 Oct, 09:00.']), { timeout: 20_000, interval: 20 });
    await vi.waitFor(async () => expect((await server!.database.db.select().from(notifications).where(eq(notifications.kind, 'booking'))).map((n) => n.status)).toEqual(['sent']), { timeout: 20_000, interval: 20 });
    // The slot is free again.
    const again = await desk.offer({ wish: 'Monday the 26th of October' });
    expect(again.kind === 'offered' && again.slots[0]!.id).toBe(offer.slots[0]!.id);
    // The reminder of a cancelled booking never goes.
    setClock('2026-10-25T18:00:01Z');
    await vi.waitFor(async () => expect((await server!.services.booking.queue.byKey(bookingTextKey('reminder', result.booking.id)))?.status).toBe('done'), { timeout: 20_000, interval: 20 });
    expect(outboxTo(server!, CALLER)).toHaveLength(2);
    // A second C with no booking left is an ordinary text, passed on to the owner; STOP still stops.
    dropText(server!, 'c2.json', { from: CALLER, to: DID, body: 'c' });
    dropText(server!, 's1.json', { from: CALLER, to: DID, body: 'STOP' });
    await inbox!.scan();
    expect(ownerTextsTo(server!, OWNER_PHONE).at(-1)!.body).toMatch(/^Text from \+447700900301: "c"/);
    expect(await server!.database.db.select().from(callerOptOuts)).toEqual([expect.objectContaining({ callerNumber: CALLER, word: 'STOP' })]);
  });

  it('a booking request (the diary down, or no time suited) tells the owner at once, once', async () => {
    const userId = await start();
    const desk = server!.services.booking.desk(userId);
    const callId = await callFrom(server!.database.db, userId, CALLER);
    const note = { callId, callerName: 'Max', callerNumber: CALLER, wish: 'Saturday morning', why: 'no-suitable-time' as const };
    await desk.leaveRequest(note);
    await desk.leaveRequest(note);
    await vi.waitFor(async () => expect((await server!.services.booking.queue.byKey(`booking-request-${callId}`))?.status).toBe('done'), { timeout: 20_000, interval: 20 });
    expect((await server!.database.db.select().from(notifications).where(eq(notifications.kind, 'booking'))).map((n) => n.status)).toEqual(['sent']);
    expect(ownerTextsTo(server!, OWNER_PHONE).map((m) => m.body)).toEqual(['Booking request from Max (+447700900301): "Saturday morning". Not booked: no offered time suited. Please call them to agree a time.']);
    // The preview writes and sends nothing.
    await server!.services.booking.desk(userId, { preview: true }).leaveRequest({ ...note, wish: 'Sunday' });
    expect(ownerTextsTo(server!, OWNER_PHONE)).toHaveLength(1);
  });
});
