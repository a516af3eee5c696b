// Booking set up in plain words (issue 57, items 2 and 4), in Chromium at 375 and 1280 px with
// axe-core and the sideways-fit check in each state: a voicemail owner is told callers cannot
// book themselves and how they get booked; Services' examples are in their trade, and a new
// service does not inherit the last one's break; the Calendar tab leads with "Which calendar do you
// use?" and each provider's steps; an iCal address is read when saved (a loopback address refused
// in plain words with no request to it, an unreadable one refused, a good one saved with what was
// found); and a calendar that stops answering is shown with what happens to bookings meanwhile.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ICAL_GUARD, startLocalIcal, type LocalIcal } from '../booking/local-ical.js';
import { darkSeriousViolations, seriousViolations } from './support/axe.js';
import { attachScreenshot, customerPage, expectToast, until, useE2E } from './support/browser.js';
import { outsideViewport } from './support/viewport-fit.js';

const e2e = useE2E({}, 120_000, { booking: { calendarGuard: ICAL_GUARD } });
let calendar: LocalIcal;
beforeAll(async () => {
  calendar = await startLocalIcal();
  // The feed's busy times are counted from here.
  e2e.server.clock.offsetMs = Date.parse('2026-12-01T08:00:00Z') - Date.now();
});
afterAll(async () => calendar?.close());

describe.each([375, 1280])('Booking set-up at %i px', (width) => {
  it('tells a voicemail owner how callers get booked, gives each calendar its steps, checks the iCal address on save, and shows a calendar that stopped answering', async ({ annotate }) => {
    const { page, customer } = await customerPage(e2e, { businessName: 'Hale Hair', industry: 'beauty', businessPhone: `07700 9008${width === 375 ? '10' : '20'}` }, { width, height: 900 });
    const clean = async () => {
      expect(await seriousViolations(page)).toEqual([]);
      expect(await outsideViewport(page)).toEqual([]);
    };

    // Voicemail is the default: who books is said where booking is set up.
    await page.goto('/dashboard/bookings?tab=services');
    const who = page.getByRole('region', { name: 'On voicemail, callers cannot book themselves' });
    await who.getByText('Only the AI agent books callers, during the call.').waitFor();
    await who.getByText('Book this caller').waitFor();
    expect(await who.getByRole('link', { name: 'switch to the AI agent' }).getAttribute('href')).toBe('/dashboard/notifications?section=answering');
    await clean();
    // The salon's examples are a salon's; a service added with a break leaves the next one without it.
    const add = page.getByRole('form', { name: 'Add a service' });
    const name = add.getByRole('textbox', { name: 'Service name' });
    expect(await name.getAttribute('placeholder')).toBe('Cut and blow-dry');
    await add.getByText('Optional, e.g. “Takes about 45 minutes; colour needs a patch test 48 hours before.”').waitFor();
    await name.fill('Colour');
    await add.getByRole('spinbutton', { name: 'Break after (minutes)' }).fill('15');
    await add.getByRole('button', { name: 'Add service' }).click();
    await expectToast(page, 'Service added');
    // The form starts afresh once the list is read again, which the toast comes before.
    await until(async () => expect(await add.getByRole('spinbutton', { name: 'Break after (minutes)' }).inputValue()).toBe('0'));
    expect(await add.getByRole('spinbutton', { name: 'Duration (minutes)' }).inputValue()).toBe('60');
    await clean();

    // Which calendar: each provider's own steps, and only the form it needs.
    await page.getByRole('tab', { name: 'Calendar' }).click();
    const choice = page.getByRole('group', { name: 'Which calendar do you use?' });
    const ical = page.getByRole('textbox', { name: 'Secret iCal address' });
    const caldav = page.getByRole('textbox', { name: 'CalDAV address' });
    await choice.getByRole('radio', { name: /^Google Calendar/ }).check();
    const steps = page.getByRole('region', { name: /^Connect / });
    await steps.getByText('Secret address in iCal format').waitFor();
    await ical.waitFor();
    expect(await caldav.count()).toBe(0);
    await clean();
    expect(await darkSeriousViolations(page)).toEqual([]);
    await choice.getByRole('radio', { name: /^Outlook or Microsoft 365/ }).check();
    await page.getByRole('region', { name: 'Connect Outlook or Microsoft 365' }).getByText('Publish a calendar').waitFor();
    await ical.waitFor();
    await clean();
    await choice.getByRole('radio', { name: /^iCloud/ }).check();
    expect(await darkSeriousViolations(page)).toEqual([]);
    await page.getByRole('region', { name: 'Connect iCloud' }).getByText('App-Specific Passwords', { exact: false }).waitFor();
    expect(await caldav.inputValue()).toBe('https://caldav.icloud.com/');
    expect(await ical.count()).toBe(0);
    await clean();
    expect(await darkSeriousViolations(page)).toEqual([]);
    await choice.getByRole('radio', { name: /^Another calendar/ }).check();
    await page.getByRole('region', { name: 'Connect Another calendar' }).getByText('CalDAV', { exact: false }).first().waitFor();
    await caldav.waitFor();
    await ical.waitFor();
    await clean();
    expect(await darkSeriousViolations(page)).toEqual([]);

    // The iCal address read on save: loopback refused before any request, an unreadable one refused, a good one saved with what it holds.
    await choice.getByRole('radio', { name: /^Google Calendar/ }).check();
    const save = page.getByRole('button', { name: 'Save iCal address' });
    const hits = calendar.hits();
    await ical.fill(`http://127.0.0.1:${calendar.port}/secret/basic.ics`);
    await save.click();
    await page.getByText('That address is not allowed: use your calendar provider', { exact: false }).waitFor();
    expect(calendar.hits()).toBe(hits);
    expect(await page.getByText(/webhook/i).count()).toBe(0);
    await clean();
    await ical.fill(calendar.good.replace('basic.ics', 'old.ics'));
    await save.click();
    await page.getByText('That iCal address could not be read: the iCal address was refused (HTTP 404)', { exact: false }).waitFor();
    await page.getByText('No iCal address set.').waitFor();
    await clean();
    await ical.fill(calendar.good);
    await save.click();
    await expectToast(page, 'iCal address saved');
    await page.getByText('Your calendar was read: 3 busy times in the next 4 weeks, the next Wed 2 Dec, 14:30. Those times are not offered to callers.').waitFor();
    await page.getByText('An iCal address is set.', { exact: false }).waitFor();
    await clean();
    await attachScreenshot(page, annotate, `booking-setup-calendar-${width}`, { fullPage: true });

    // The calendar stops answering: the desk takes requests, and the tab says so.
    const [service] = (await customer.client.get('/api/user/booking/services')).body.services as { id: number }[];
    calendar.setDown(true);
    try {
      expect((await e2e.server.services.booking.desk(customer.user.id).offer({ serviceId: service!.id, wish: 'Friday' })).kind).toBe('unavailable');
    } finally {
      calendar.setDown(false);
    }
    await page.reload();
    const trouble = page.getByRole('alert').filter({ hasText: 'Your calendar stopped answering' });
    await trouble.getByText('The last try: the iCal address answered HTTP 500.').waitFor();
    await trouble.getByText('the agent takes a booking request instead', { exact: false }).waitFor();
    await clean();
  });
});
