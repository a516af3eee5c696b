// "Book this caller" in Call Details, in the browser at 375 and 1280 px (issue 41, item 8): the
// owner opens a voicemail whose caller wanted a booking, picks a service and one of the free times
// the slot engine offers; a time another call took meanwhile is refused with the server's sentence
// and the times read again; the next one is booked, shown in Call Details and in Bookings, and the
// caller's confirmation is in the outbox, once. axe finds nothing serious and nothing leaves the
// viewport in each state.
import { describe, expect, it, vi } from 'vitest';
import { giveNumber, outboxTo } from '../caller-texts/helpers.js';
import { callFrom } from '../booking/fixtures.js';
import { seriousViolations } from './support/axe.js';
import { attachScreenshot, customerPage, expectToast, useE2E } from './support/browser.js';
import { outsideViewport } from './support/viewport-fit.js';
import { runBookingWorkers } from './support/booking-workers.js';

const e2e = useE2E();
runBookingWorkers(e2e);

describe.each([375, 1280])('Book this caller at %i px', (width) => {
  it('books the caller of a voicemail that wanted a booking from Call Details, a time taken meanwhile refused, and texts them', async ({ annotate }) => {
    const { page, customer } = await customerPage(e2e, { businessName: 'Hale Plumbing', businessPhone: `07700 9008${width === 375 ? '10' : '20'}` }, { width, height: 900 });
    const server = e2e.server;
    const db = server.database.db;
    const userId = customer.user.id;
    const [did, caller, rival] = width === 375 ? ['+447700900081', '+447700900811', '+447700900813'] : ['+447700900082', '+447700900812', '+447700900814'];
    await giveNumber(server, userId, did);
    const service = (await customer.client.post('/api/user/booking/services', { name: 'Boiler service', durationMinutes: 60 })).body as { id: number };
    const voicemail = (from: string) => callFrom(db, userId, from, { mode: 'voicemail', status: 'voicemail', wantsBooking: true, aiSummary: 'Jo Bloggs would like to book a boiler service next week.' });
    const callId = await voicemail(caller);
    const clean = async () => {
      expect(await seriousViolations(page)).toEqual([]);
      expect(await outsideViewport(page)).toEqual([]);
    };

    await page.goto(`/dashboard?call=${callId}`);
    const details = page.getByRole('dialog', { name: 'Call Details' });
    await details.getByText('The caller wanted a booking.').waitFor();
    await clean();
    await details.getByRole('button', { name: 'Book this caller' }).click();
    const form = details.getByRole('form', { name: 'Book this caller' });
    await form.getByRole('textbox', { name: "Caller's name" }).fill('Jo Bloggs');
    const times = form.getByRole('group', { name: 'Free times (UK time)' }).getByRole('radio');
    await times.first().waitFor();
    // Grouped by day, each time named as an owner scans it: "Wed 2 Dec · 12:30" (issue 57, item 3).
    const firstName = (await times.first().getAttribute('aria-label'))!;
    expect(firstName).toMatch(/^(Mon|Tue|Wed|Thu|Fri|Sat|Sun) \d{1,2} [A-Z][a-z]{2} · \d\d:\d\d$/);
    const [firstDay, firstTime] = firstName.split(' · ');
    expect((await form.getByRole('group', { name: firstDay! }).getByRole('radio').first().evaluate((el) => el.closest('label')!.textContent ?? '')).trim()).toBe(firstTime);
    await clean();

    // Another call takes the first time offered while the owner looks at it: the server's 409 shows.
    const first = await times.first().getAttribute('value');
    const taken = await customer.client.post(`/api/call-logs/${await voicemail(rival)}/booking`, { serviceId: service.id, start: first });
    expect(taken.status).toBe(201);
    await times.first().check();
    await form.getByRole('button', { name: 'Book and text the caller' }).click();
    await form.getByText('That time has just been taken, or your calendar now has something then. Pick another of the free times.').waitFor();
    await clean();
    await attachScreenshot(page, annotate, `book-caller-taken-${width}`);
    // The times are read again: the taken one is no longer offered.
    await vi.waitFor(async () => expect(await times.first().getAttribute('value')).not.toBe(first), { timeout: 20_000, interval: 50 });

    const chosen = times.first();
    const chosenStart = await chosen.getAttribute('value');
    await chosen.check();
    await form.getByRole('button', { name: 'Book and text the caller' }).click();
    await expectToast(page, 'Booked');
    // Call Details shows the booking; there is nothing more to book from this call.
    const spoken = ((await customer.client.get(`/api/user/bookings?callId=${callId}`)).body.bookings as { spoken: string }[])[0]!.spoken;
    await details.getByText(`Boiler service, ${spoken}, for Jo Bloggs`, { exact: false }).waitFor();
    expect(await details.getByRole('button', { name: 'Book this caller' }).count()).toBe(0);
    await clean();
    await attachScreenshot(page, annotate, `book-caller-${width}`, { fullPage: true });
    const mine = ((await customer.client.get(`/api/user/bookings?callId=${callId}`)).body.bookings as { callerName: string; status: string; callerNumber: string }[]);
    expect(mine).toEqual([expect.objectContaining({ callerName: 'Jo Bloggs', status: 'booked', callerNumber: caller, start: new Date(chosenStart!).toISOString(), spoken })]);

    // In Bookings too; and the caller is texted their confirmation, once.
    await page.goto('/dashboard/bookings');
    await page.getByRole('listitem').filter({ hasText: 'Jo Bloggs' }).getByText('Boiler service').waitFor();
    await clean();
    await vi.waitFor(() => expect(outboxTo(server, caller).map((m) => m.body)).toEqual([expect.stringMatching(/^Hale Plumbing: you're booked for Boiler service on .+\. Reply C to cancel\./)]), { timeout: 30_000, interval: 50 });
  });
});
