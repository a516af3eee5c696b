// Bookings in the browser at 375 and 1280 px (issue 41, item 6): a service added (a too-short
// duration refused at its field), booking hours (a bad Saturday refused at Saturday), CalDAV connected to a real Radicale (a wrong password told in
// plain words first, the password never shown back), a booking made through the desk listed as a
// card that fits the phone, a move to a time that is not free refused with the server's reason
// and then to a free one (the caller texted),
// Call Details showing the booking, and a cancel (asked first) that texts the caller; axe finds
// nothing serious in each state.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { londonOffsetMs } from '../../core/time/london-time.js';
import { giveNumber, outboxTo } from '../caller-texts/helpers.js';
import { callFrom } from '../booking/fixtures.js';
import { startRadicale, type Radicale } from '../helpers/radicale.js';
import { darkSeriousViolations, seriousViolations } from './support/axe.js';
import { attachScreenshot, customerPage, expectToast, until, useE2E } from './support/browser.js';
import { outsideViewport } from './support/viewport-fit.js';
import { runBookingWorkers } from './support/booking-workers.js';

// Radicale listens on loopback: the calendars' test seam lets it through.
const e2e = useE2E({}, undefined, { booking: { calendarGuard: { allowLoopback: true } } });
/** HH:mm on the London wall clock, `plusHours` after `t`. */
const londonHhMm = (t: Date, plusHours: number) => {
  const ms = t.getTime() + plusHours * 3_600_000;
  return new Date(ms + londonOffsetMs(ms)).toISOString().slice(11, 16);
};
runBookingWorkers(e2e);
// Each width's owner has a calendar of their own, so one run's bookings never block the other's.
let radicale: Radicale | undefined;
afterEach(async () => {
  await radicale?.stop();
  radicale = undefined;
});

describe.each([375, 1280])('Bookings at %i px', (width) => {
  it('adds a service and hours, connects CalDAV, lists a booking, moves it (a busy time refused) and cancels it, texting the caller', async ({ annotate }) => {
    const { page, customer } = await customerPage(e2e, { businessName: 'Hale Plumbing', businessPhone: `07700 9007${width === 375 ? '10' : '20'}` }, { width, height: 900 });
    const server = e2e.server;
    radicale = await startRadicale();
    const did = width === 375 ? '+447700900071' : '+447700900072';
    const caller = width === 375 ? '+447700900711' : '+447700900712';
    await giveNumber(server, customer.user.id, did);
    const clean = async () => {
      expect(await seriousViolations(page)).toEqual([]);
      expect(await outsideViewport(page)).toEqual([]);
    };

    // Services: the server's 400 at the duration, then the service added and listed.
    await page.goto('/dashboard/bookings');
    await page.getByRole('heading', { name: 'Bookings', level: 1 }).waitFor();
    await page.getByRole('tab', { name: 'Services and hours' }).click();
    const add = page.getByRole('form', { name: 'Add a service' });
    await add.getByRole('textbox', { name: 'Service name' }).fill('Boiler service');
    await add.getByRole('spinbutton', { name: 'Duration (minutes)' }).fill('5');
    await add.getByRole('button', { name: 'Add service' }).click();
    await add.getByText('A service lasts a whole number of minutes from 10 to 240.').waitFor();
    await clean();
    await add.getByRole('spinbutton', { name: 'Duration (minutes)' }).fill('60');
    await add.getByRole('button', { name: 'Add service' }).click();
    await expectToast(page, 'Service added');
    await page.getByRole('list', { name: 'Services', exact: true }).getByText('Boiler service').waitFor();
    // Booking hours of their own: a Saturday that closes before it opens is refused at Saturday.
    await page.getByRole('switch', { name: 'Same as my opening hours' }).click();
    await page.getByRole('button', { name: 'Add hours on Saturday' }).click();
    await page.getByLabel('Saturday opens').fill('18:00');
    await page.getByRole('spinbutton', { name: 'Most bookings a day' }).fill('6');
    await page.getByRole('button', { name: 'Save booking hours' }).click();
    await page.getByRole('group', { name: 'Booking hours' }).getByText('Booking hours: Saturday: closing time 17:30 must be after opening time 18:00.').waitFor();
    await clean();
    await page.getByLabel('Saturday opens').fill('10:00');
    await page.getByRole('button', { name: 'Save booking hours' }).click();
    await expectToast(page, 'Booking hours saved');
    expect((await customer.client.get('/api/user/booking/rules')).body.rules).toMatchObject({ dailyCap: 6, hours: { sat: [{ open: '10:00', close: '17:30' }], mon: [{ open: '09:00', close: '17:30' }] } });
    await clean();

    // Calendar: a wrong password told in plain words, then the right one tested and connected.
    await page.getByRole('tab', { name: 'Calendar' }).click();
    await page.getByRole('group', { name: 'Which calendar do you use?' }).getByRole('radio', { name: /^Another calendar/ }).check();
    await page.getByRole('textbox', { name: 'CalDAV address' }).fill(radicale!.calendarUrl);
    await page.getByRole('textbox', { name: 'User name' }).fill(radicale!.user);
    const password = page.getByLabel('App password');
    await password.fill('not-the-password');
    await page.getByRole('button', { name: 'Test connection' }).click();
    await page.getByText('The calendar refused the user name or password.', { exact: false }).waitFor();
    await clean();
    await password.fill(radicale!.password);
    await page.getByRole('button', { name: 'Test connection' }).click();
    await page.getByText('Connected to the calendar "Work".').waitFor();
    await page.getByRole('button', { name: 'Connect calendar' }).click();
    await expectToast(page, 'Calendar connected');
    await page.getByText(radicale!.calendarUrl).waitFor();
    expect(await page.content()).not.toContain(radicale!.password);
    await page.getByRole('button', { name: 'Make a feed address' }).click();
    const feed = page.getByRole('textbox', { name: 'Bookings feed address' });
    await until(async () => expect(await feed.inputValue()).toMatch(/\/api\/booking\/feed\/.+\.ics$/));
    const firstFeed = await feed.inputValue();
    // A new address only after saying the old one stops working.
    await page.getByRole('button', { name: 'Make a new address' }).click();
    const regenerate = page.getByRole('dialog', { name: 'Make a new feed address?' });
    await regenerate.getByText('The old address stops working at once', { exact: false }).waitFor();
    await clean();
    await regenerate.getByRole('button', { name: 'Make a new address' }).click();
    await until(async () => expect(await feed.inputValue()).not.toBe(firstFeed));
    expect((await fetch(server.url + new URL(firstFeed).pathname)).status).toBe(404);
    await clean();
    await attachScreenshot(page, annotate, `booking-calendar-${width}`, { fullPage: true });

    // A booking made through the desk, as the agent makes it, against the Radicale calendar.
    const desk = server.services.booking.desk(customer.user.id);
    const offer = await desk.offer({ wish: 'next week' });
    if (offer.kind !== 'offered') throw new Error(`no offer: ${offer.kind}`);
    const callId = await callFrom(server.database.db, customer.user.id, caller);
    const booked = await desk.book({ slotId: offer.slots[0]!.id, callId, callerName: 'Jo Bloggs', callerNumber: caller });
    if (booked.kind !== 'booked') throw new Error(`not booked: ${booked.kind}`);
    await vi.waitFor(() => expect(outboxTo(server, caller).map((m) => m.body)).toContainEqual(expect.stringMatching(/^Hale Plumbing: you're booked for Boiler service on /)), { timeout: 30_000, interval: 50 });

    await page.getByRole('tab', { name: 'Bookings' }).click();
    const card = page.getByRole('listitem').filter({ hasText: 'Jo Bloggs' });
    await card.getByText('Boiler service').waitFor();
    await clean();

    // Moved to 03:00 on its own day: not free, the server's reason shown in the dialog.
    await card.getByRole('button', { name: "Move Jo Bloggs's booking" }).click();
    const move = page.getByRole('dialog', { name: 'Move this booking' });
    // It offers the service's free times by day, as Book this caller does; one picked fills the time.
    const free = move.getByRole('group', { name: 'Free times (UK time)' }).getByRole('radio');
    await free.first().waitFor();
    const offered = (await free.first().getAttribute('aria-label'))!.split(' · ');
    const ownDay = await move.getByLabel('New date').inputValue();
    await free.first().check();
    expect(await move.getByLabel('New time').inputValue()).toBe(offered[1]);
    await clean();
    expect(await darkSeriousViolations(page)).toEqual([]);
    await move.getByLabel('New date').fill(ownDay);
    // A refused time names its rule (issue 57, item 3).
    await move.getByLabel('New time').fill('03:00');
    await move.getByRole('button', { name: 'Move booking' }).click();
    await move.getByText('That time is outside your booking hours (the whole booking must fit inside them). Pick another time.').waitFor();
    await clean();
    expect(await darkSeriousViolations(page)).toEqual([]);
    // An hour later the same day is free: moved, and the caller is texted the new time.
    const [was, later, after] = [londonHhMm(booked.booking.start, 0), londonHhMm(booked.booking.start, 1), londonHhMm(booked.booking.start, 2)];
    await move.getByLabel('New time').fill(later);
    await move.getByRole('button', { name: 'Move booking' }).click();
    await expectToast(page, 'Booking moved');
    await card.getByText(`${later}–${after}`).waitFor();
    const moved = new RegExp(`^Hale Plumbing: your Boiler service has moved from .+, ${was} to .+, ${later}\\. Reply C to cancel\\.$`);
    await vi.waitFor(() => expect(outboxTo(server, caller).map((m) => m.body)).toContainEqual(expect.stringMatching(moved)), { timeout: 30_000, interval: 50 });

    await page.goto(`/dashboard?call=${callId}`);
    const details = page.getByRole('dialog', { name: 'Call Details' });
    await details.getByRole('heading', { name: 'Booking' }).waitFor();
    // What the call booked, at its new time (the one in Bookings) and marked Moved; the old time is gone.
    const [now] = (await customer.client.get('/api/user/bookings')).body.bookings as { spoken: string }[];
    expect(now!.spoken).not.toBe(booked.booking.spoken);
    await details.getByText(`Boiler service, ${now!.spoken}, for Jo Bloggs`, { exact: false }).waitFor();
    await details.getByText('Moved', { exact: true }).waitFor();
    expect(await details.getByText(booked.booking.spoken, { exact: false }).count()).toBe(0);
    await clean();

    // Cancelled, asked first; the caller is texted.
    await page.goto('/dashboard/bookings');
    await card.getByRole('button', { name: "Cancel Jo Bloggs's booking" }).click();
    const confirm = page.getByRole('dialog', { name: 'Cancel this booking?' });
    await confirm.waitFor();
    await clean();
    await confirm.getByRole('button', { name: 'Cancel booking' }).click();
    await expectToast(page, 'Booking cancelled');
    await card.getByText('Cancelled').waitFor();
    await vi.waitFor(() => expect(outboxTo(server, caller).map((m) => m.body)).toContainEqual(expect.stringMatching(/^Hale Plumbing: sorry, your Boiler service on .+ has been cancelled\. Please call us to book another time\.$/)), { timeout: 30_000, interval: 50 });
    await clean();
    await attachScreenshot(page, annotate, `booking-list-${width}`, { fullPage: true });
  });
});
