// The Team page's gaps (issue 58, items 5 and 7) in Chromium at 375 and 1280 px with axe-core
// and the 320 px fit check in each state: the owner connects a member's CalDAV calendar on a
// real Radicale from the Team page (a refused password shown as the server sent it), sees it
// connected and disconnects it; the owner's member still called "Owner" asks for a name until
// renamed; a staff member's sign-in opens Bookings and Call Logs and meets no owner-only card or
// button, and no request of theirs is refused (403) on the way.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Page, Response } from 'playwright-core';
import { ApiClient } from '../helpers/client.js';
import { startRadicale, type Radicale } from '../helpers/radicale.js';
import { bookingServices, bookings, callerTexts, calls, unansweredQuestions } from '../helpers/tables.js';
import { seriousViolations } from './support/axe.js';
import { adoptSession, attachScreenshot, customerPage, expectToast, outboxMails, useE2E } from './support/browser.js';
import { outsideViewport } from './support/viewport-fit.js';

// Radicale listens on loopback: the calendars' test seam lets it through.
const e2e = useE2E({}, 180_000, { booking: { calendarGuard: { allowLoopback: true } } });

/** Conditions a loaded machine reaches late: generous, never a sleep. */
const eventually = <T,>(check: () => T | Promise<T>) => vi.waitFor(check, { timeout: 30_000, interval: 100 });

const clean = async (page: Page) => {
  expect(await seriousViolations(page)).toEqual([]);
  expect(await outsideViewport(page)).toEqual([]);
};

let radicale: Radicale;
beforeAll(async () => {
  radicale = await startRadicale();
}, 60_000);
afterAll(async () => radicale?.stop());

describe.each([375, 1280])('Team page gaps at %i px', (width) => {
  it("connects a member's CalDAV calendar on a real Radicale, shows it connected, and disconnects it", async ({ annotate }) => {
    const { page, customer } = await customerPage(e2e, { businessName: 'Hale Joinery', businessPhone: `07700 9009${width === 375 ? '61' : '62'}` }, { width, height: 900 });
    const added = await customer.client.post('/api/user/team', { name: 'Sarah', roleWord: 'joiner' });
    expect(added.status).toBe(201);
    const sarahId = added.body.member.id as number;

    await page.goto('/dashboard/team');
    const sarah = page.getByRole('listitem', { name: 'Sarah' });
    await sarah.getByText('Calendar:').waitFor();
    expect(await sarah.innerText()).toMatch(/Calendar:\s*None/);
    await sarah.getByRole('button', { name: 'Calendar: Sarah' }).click();
    const dialog = page.getByRole('dialog', { name: "Sarah's calendar" });
    await dialog.getByText('No calendar connected for Sarah').waitFor();
    // The owner's Calendar tab's provider steps, for Sarah.
    await dialog.getByRole('radio', { name: /Another calendar/ }).check();
    await dialog.getByRole('heading', { name: 'Connect Another calendar' }).waitFor();
    await clean(page);

    // A wrong password: the server's sentence, as sent, and nothing stored.
    await dialog.getByRole('textbox', { name: 'CalDAV address' }).fill(radicale.calendarUrl);
    await dialog.getByRole('textbox', { name: 'User name' }).fill(radicale.user);
    await dialog.getByLabel('App password').fill('not-the-password');
    await dialog.getByRole('button', { name: 'Connect calendar' }).click();
    const refused = await eventually(async () => {
      const text = await dialog.getByRole('alert').innerText();
      expect(text).not.toBe('');
      return text;
    });
    const direct = await customer.client.request('PUT', `/api/user/team/${sarahId}/calendar`, { address: radicale.calendarUrl, username: radicale.user, password: 'not-the-password' });
    expect(direct.status).toBe(400);
    expect(refused).toBe(direct.body.message);
    expect((await customer.client.get('/api/user/team')).body.members[1].calendar).toBe('none');
    await clean(page);

    await dialog.getByLabel('App password').fill(radicale.password);
    await dialog.getByRole('button', { name: 'Connect calendar' }).click();
    await expectToast(page, 'Calendar connected');
    await dialog.getByText(radicale.calendarUrl).waitFor();
    await dialog.getByText("Sarah's CalDAV calendar is connected").waitFor();
    expect(await page.content()).not.toContain(radicale.password);
    await clean(page);
    await attachScreenshot(page, annotate, `team-calendar-${width}`);
    const stored = (await customer.client.get('/api/user/team')).body.members.find((m: { id: number }) => m.id === sarahId);
    expect(stored.calendar).toBe('caldav');
    // The owner's own calendar is untouched: this was Sarah's.
    expect((await customer.client.get('/api/user/booking/calendar')).body.caldav).toBeNull();

    // The row says so, after a reload too (the team list sends only the kind).
    await dialog.getByRole('button', { name: 'Close' }).first().click();
    await page.reload();
    await eventually(async () => expect(await page.getByRole('listitem', { name: 'Sarah' }).innerText()).toMatch(/Calendar:\s*CalDAV, two-way/));
    await clean(page);

    await page.getByRole('button', { name: 'Calendar: Sarah' }).click();
    await dialog.getByText("Sarah's CalDAV calendar is connected").waitFor();
    await dialog.getByRole('button', { name: 'Disconnect' }).click();
    const confirm = page.getByRole('dialog', { name: 'Disconnect this calendar?' });
    await confirm.getByRole('button', { name: 'Disconnect' }).click();
    await expectToast(page, 'Calendar disconnected');
    await dialog.getByText('No calendar connected for Sarah').waitFor();
    await eventually(async () => expect(await page.getByRole('listitem', { name: 'Sarah' }).innerText()).toMatch(/Calendar:\s*None/));
    expect((await customer.client.get('/api/user/team')).body.members.find((m: { id: number }) => m.id === sarahId).calendar).toBe('none');
    await clean(page);
  });

  it('asks the owner for their name while their member is still called "Owner", and stops once renamed', async () => {
    const { page, customer } = await customerPage(e2e, { businessName: 'Hale Florist', businessPhone: `07700 9009${width === 375 ? '71' : '72'}` }, { width, height: 900 });
    await page.goto('/dashboard/team');
    const prompt = 'Add your name, so callers who ask for you by name are put through to you.';
    const ownerRow = page.getByRole('listitem', { name: 'Owner' });
    await ownerRow.getByText(prompt).waitFor();
    await clean(page);

    await ownerRow.getByRole('button', { name: 'Add your name' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Owner' });
    await edit.getByLabel('Name', { exact: true }).fill('Priya Shah');
    await edit.getByRole('button', { name: 'Save', exact: true }).click();
    await expectToast(page, 'Priya Shah saved');
    await page.getByRole('listitem', { name: 'Priya Shah' }).waitFor();
    expect(await page.getByText(prompt).count()).toBe(0);
    expect((await customer.client.get('/api/user/team')).body.members[0]).toMatchObject({ isOwner: true, name: 'Priya Shah' });
    await clean(page);
  });

  it('shows a staff sign-in Bookings, Call Logs, Caller Texts and AI Questions without an owner-only card or button, and nothing refused', async ({ annotate }) => {
    const { customer } = await customerPage(e2e, { businessName: 'Hale Barbers', businessPhone: `07700 9009${width === 375 ? '81' : '82'}` }, { width, height: 900 });
    const owner = customer.user.id;
    const sarah = (await customer.client.post('/api/user/team', { name: 'Sarah', view: 'everything' })).body.member.id as number;
    const db = e2e.server.database.db;
    const now = Date.now();
    // Sarah's calls: one from a blocked caller (the owner's card offers Unblock and reads the
    // block list), one a caller she could book (the owner's Call Details offers "Book this caller").
    const [, bookable] = await db.insert(calls).values([
      { userId: owner, staffId: sarah, fromNumber: '+447700900411', toNumber: '+447700900999', status: 'voicemail' as const, duration: 20, createdAt: new Date(now - 60_000), aiSummary: 'Asks again about a refund.', callerTag: 'blocked' as const },
      { userId: owner, staffId: sarah, fromNumber: '+447700900412', toNumber: '+447700900999', status: 'voicemail' as const, duration: 40, createdAt: new Date(now - 120_000), aiSummary: 'Wants a haircut on Friday.', transcription: 'Hello, can I book a haircut on Friday?' },
    ]).returning();
    const service = (await db.insert(bookingServices).values({ userId: owner, name: 'Haircut', durationMinutes: 30 }).returning())[0]!;
    const start = now + 3 * 86_400_000;
    await db.insert(bookings).values({
      userId: owner, serviceId: service.id, staffId: sarah, callId: bookable!.id, callerName: 'Jo Bloggs', callerNumber: '+447700900413',
      startAt: new Date(start), endAt: new Date(start + 1_800_000), blockEndAt: new Date(start + 1_800_000), slotKey: `e2e-${width}`,
    });

    // A caller's text and a question the agent could not answer, from Sarah's callers.
    await db.insert(callerTexts).values({ userId: owner, callerNumber: '+447700900412', kind: 'caller', status: 'received', body: 'Is Friday at ten free?', key: `e2e-staff-text-${width}`, createdAt: new Date(now - 90_000) });
    await db.insert(unansweredQuestions).values({ userId: owner, callId: bookable!.id, callerNumber: '+447700900412', question: 'Do you do beard trims?', createdAt: new Date(now - 100_000) });

    // Sarah's own sign-in, from the owner's invitation.
    const email = `sarah-barber-${width}@example.co.uk`;
    expect((await customer.client.post(`/api/user/team/${sarah}/invite`, { email })).status).toBe(200);
    const token = await eventually(() => {
      const token = outboxMails(e2e.server).filter((m) => m.includes(email)).map((m) => /\/reset-password\/([A-Za-z0-9_-]+)/.exec(m)?.[1]).find(Boolean);
      if (!token) throw new Error('no invitation mail yet');
      return token;
    });
    const anon = new ApiClient(e2e.server.url);
    expect((await anon.post('/api/auth/reset-password', { token, newPassword: 'Sarah-Pass-1', confirmPassword: 'Sarah-Pass-1' })).status).toBe(200);
    const staffClient = new ApiClient(e2e.server.url);
    expect((await staffClient.post('/api/auth/login', { email, password: 'Sarah-Pass-1' })).status).toBe(200);
    const page = await e2e.page({ width, height: 900 });
    await adoptSession(page, staffClient, e2e.server.url);
    const refused: string[] = [];
    page.on('response', (r: Response) => {
      if (r.status() === 403) refused.push(`${r.request().method()} ${new URL(r.url()).pathname}`);
    });
    const noOwnerOnlyText = async () => expect(await page.locator('body').innerText()).not.toContain('Only the business owner');

    await page.goto('/dashboard/bookings');
    await page.getByRole('listitem', { name: /Haircut, Jo Bloggs/ }).waitFor();
    await page.getByTestId('staff-banner').getByText('Signed in as Sarah at Hale Barbers').waitFor();
    for (const name of ['Services and hours', 'Calendar']) expect(await page.getByRole('tab', { name }).count()).toBe(0);
    for (const name of [/^Move /, /^Cancel /]) expect(await page.getByRole('button', { name }).count()).toBe(0);
    expect(await page.getByText('Which calendar do you use?').count()).toBe(0);
    expect(await page.getByRole('region', { name: /callers cannot book themselves|agent books callers/ }).count()).toBe(0);
    await clean(page);
    await noOwnerOnlyText();
    await attachScreenshot(page, annotate, `team-staff-bookings-${width}`);

    await page.goto('/dashboard');
    const list = page.getByRole('list', { name: 'Calls' });
    await list.getByRole('button', { name: '+44 770 090 0411' }).waitFor();
    expect(await page.getByRole('button', { name: /^Unblock/ }).count()).toBe(0);
    expect(await page.getByText('Get your line answering').count()).toBe(0);
    await clean(page);

    await list.getByRole('button', { name: '+44 770 090 0412' }).click();
    const details = page.getByRole('dialog', { name: 'Call Details' });
    await details.getByText('Hello, can I book a haircut on Friday?').waitFor();
    // The booking this call made is shown; what only the owner may do with it is not.
    await details.getByText('Haircut', { exact: true }).waitFor();
    for (const name of ['Book this caller', 'Mark as spam', 'Not spam', /^Unblock/]) expect(await details.getByRole('button', { name }).count()).toBe(0);
    await details.getByRole('link', { name: 'Texts with this caller' }).waitFor();
    await clean(page);
    await noOwnerOnlyText();
    await details.getByRole('button', { name: 'Close' }).first().click();

    await list.getByRole('button', { name: '+44 770 090 0411' }).click();
    await details.getByText('Asks again about a refund.').waitFor();
    for (const name of ['Mark as spam', /^Unblock/]) expect(await details.getByRole('button', { name }).count()).toBe(0);
    await noOwnerOnlyText();
    await details.getByRole('button', { name: 'Close' }).first().click();

    // Caller Texts: the thread to read; no text-back settings, opt-out list or reply box.
    await page.goto('/dashboard/texts?caller=%2B447700900412');
    await page.getByText('Is Friday at ten free?').first().waitFor();
    expect(await page.getByText('Missed-call text-back').count()).toBe(0);
    expect(await page.getByText('Opted-out callers').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Send Text' }).count()).toBe(0);
    expect(await page.getByLabel('Your reply').count()).toBe(0);
    await clean(page);
    await noOwnerOnlyText();

    // AI Questions: resolve, but not add to the knowledge base or delete.
    await page.goto('/dashboard/questions');
    await page.getByText('Do you do beard trims?').first().waitFor();
    await page.getByRole('button', { name: 'Resolve' }).first().waitFor();
    expect(await page.getByRole('button', { name: /Add to KB/ }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Delete' }).count()).toBe(0);
    await clean(page);
    await noOwnerOnlyText();
    expect(refused).toEqual([]);
  });
});
