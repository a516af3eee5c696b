// Caller Texts in the browser at 375 and 1280 px: the text-back wording editor with its live
// SMS count (GSM-7, then UCS-2 when a dash goes in), a caller's thread with an answer sent to the
// outbox, a failed text's reason, a booking confirmation's link and a caller's pasted link
// wrapping inside their bubbles, the caller's name from their booking, the opted-out list, and
// Call Details' link to the thread; axe and the fit check find nothing.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { formatPhone } from '../../contract/phone.js';
import { bookings, callerTexts, calls } from '../helpers/tables.js';
import { startLocalInbox } from '../../core/followup/local-inbox.js';
import { dropText, giveNumber, outboxTo } from '../caller-texts/helpers.js';
import { darkSeriousViolations, seriousViolations } from './support/axe.js';
import { attachScreenshot, customerPage, expectToast, until, useE2E } from './support/browser.js';
import { outsideViewport } from './support/viewport-fit.js';

const e2e = useE2E();
const LINK = 'https://callkeeper.example.co.uk/api/booking/event/b7Kq2xZ9fLmN4pR8sT1vW6yA3cE5gH0jU.ics';
const PASTED = 'https://photos.example.com/share/AF1QipNq8ZrT5xWm3LkVb7YcD2eHgJ4sPuR9oXiQa6Fn';

describe.each([375, 1280])('Caller Texts at %i px', (width) => {
  it('edits the wording with its count, answers a caller from their thread, shows a failure and who opted out', async ({ annotate }) => {
    const { page, customer } = await customerPage(e2e, { businessName: 'Hale Plumbing', businessPhone: `07700 9009${width === 375 ? '10' : '20'}` }, { width, height: 900 });
    const did = width === 375 ? '+447700900061' : '+447700900062';
    const caller = width === 375 ? '+447700900311' : '+447700900411';
    const stopper = width === 375 ? '+447700900511' : '+447700900611';
    const server = e2e.server;
    await giveNumber(server, customer.user.id, did);
    const inbox = startLocalInbox(server.services, { watch: false });
    try {
      dropText(server, `a-${width}.json`, { from: caller, to: did, body: 'Can you come Tuesday?' });
      dropText(server, `b-${width}.json`, { from: stopper, to: did, body: 'STOP' });
      dropText(server, `c-${width}.json`, { from: caller, to: did, body: `Photo of the leak: ${PASTED}` });
      await inbox.scan();
    } finally {
      await inbox.stop();
    }
    // A text the provider refused, with its reason, in the caller's thread.
    await server.database.db.insert(callerTexts).values({ userId: customer.user.id, callerNumber: caller, kind: 'owner', status: 'undelivered', body: 'Earlier answer', segments: 1, key: `owner:e2e-${width}`, error: 'the phone is switched off or out of signal (Twilio 30003)' });
    // The confirmation every booked caller gets carries a link with no break in it, and a caller
    // may paste one too: both wrap inside their bubble (issue 57, item 1).
    await server.database.db.insert(callerTexts).values({ userId: customer.user.id, callerNumber: caller, kind: 'booking', status: 'delivered', body: `Booked: Boiler service with Hale Plumbing, Wednesday 2 December at 12:30. Add to your calendar: ${LINK}`, segments: 2, key: `booking:e2e-${width}` });

    // A booking knows the caller's name: their thread is headed with it (issue 57, item 7).
    const service = (await customer.client.post('/api/user/booking/services', { name: 'Boiler service', durationMinutes: 60 })).body as { id: number };
    const booked = new Date(Date.now() + 3 * 86_400_000);
    await server.database.db.insert(bookings).values({ userId: customer.user.id, serviceId: service.id, startAt: booked, endAt: new Date(booked.getTime() + 3_600_000), blockEndAt: new Date(booked.getTime() + 3_600_000), callerName: 'Jo Bloggs', callerNumber: caller, callId: null, slotKey: `e2e-${width}`, status: 'booked', createdAt: new Date() });
    await page.goto('/dashboard/texts');
    await page.getByRole('heading', { name: 'Caller Texts' }).waitFor();
    const wording = page.getByRole('textbox', { name: 'Text-back wording' });
    await until(async () => expect(await wording.inputValue()).toMatch(/^Sorry we missed your call to Hale Plumbing\./));
    await wording.fill('Sorry we missed you, reply here');
    await page.getByText('31 characters · 1 SMS (GSM-7)').waitFor();
    await wording.fill('Sorry we missed you — reply here');
    await page.getByText('32 characters · 1 SMS (UCS-2)', { exact: false }).waitFor();
    await page.getByRole('switch', { name: 'Text back callers who leave no message' }).click();
    await page.getByRole('button', { name: 'Save Text-back' }).click();
    await expectToast(page, 'Text-back saved');
    expect((await customer.client.get('/api/user/text-back')).body.settings).toMatchObject({ enabled: true, wording: 'Sorry we missed you — reply here' });

    await page.getByRole('navigation', { name: 'Conversations' }).getByRole('button', { name: new RegExp(`^${formatPhone(caller).replace(/\+/g, '\\+')}`) }).click();
    const texts = page.getByRole('list', { name: /^Texts with / });
    await texts.getByText('Can you come Tuesday?').waitFor();
    await page.getByRole('heading', { name: `Jo Bloggs · ${formatPhone(caller)}` }).waitFor();
    await texts.getByText(LINK, { exact: false }).waitFor();
    await texts.getByText(PASTED, { exact: false }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    expect(await darkSeriousViolations(page)).toEqual([]);
    expect(await outsideViewport(page)).toEqual([]);
    await texts.getByText('Not delivered: the phone is switched off or out of signal (Twilio 30003)').waitFor();
    await page.getByRole('textbox', { name: 'Your reply' }).fill('Yes, Tuesday at 10.');
    await page.getByText('19 characters · 1 SMS (GSM-7)').waitFor();
    await page.getByRole('button', { name: 'Send Text' }).click();
    await expectToast(page, 'Text sent');
    await texts.getByText('Yes, Tuesday at 10.').waitFor();
    expect(outboxTo(server, caller)).toEqual([expect.objectContaining({ from: did, body: 'Yes, Tuesday at 10.' })]);

    const optOuts = page.getByRole('table', { name: 'Opted-out callers' });
    await optOuts.getByText('STOP', { exact: true }).waitFor();
    expect(await optOuts.getByRole('row').count()).toBe(2);
    // Opened again by the link in the owner's text about a caller's text (no toast on screen now).
    await page.goto(`/dashboard/texts?caller=${encodeURIComponent(caller)}`);
    await page.getByRole('list', { name: /^Texts with / }).getByText('Yes, Tuesday at 10.').waitFor();
    await optOuts.getByText('STOP', { exact: true }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    expect(await outsideViewport(page)).toEqual([]);
    await attachScreenshot(page, annotate, `caller-texts-${width}`, { fullPage: true });

    // Call Details links to the caller's texts.
    const [call] = await server.database.db.insert(calls).values({ userId: customer.user.id, fromNumber: caller, toNumber: did, status: 'missed', createdAt: new Date() }).returning();
    await page.goto(`/dashboard?call=${call!.id}`);
    await page.getByRole('dialog', { name: 'Call Details' }).getByRole('link', { name: 'Texts with this caller' }).click();
    await page.getByRole('list', { name: `Texts with Jo Bloggs, ${formatPhone(caller)}` }).getByText('Yes, Tuesday at 10.').waitFor();
    expect(new URL(page.url()).searchParams.get('caller')).toBe(caller);
    expect((await server.database.db.select().from(callerTexts).where(eq(callerTexts.callerNumber, stopper))).map((t) => t.kind)).toEqual(['caller', 'stop']);
  });
});
