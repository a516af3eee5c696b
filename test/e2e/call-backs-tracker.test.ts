// Issue 56: the assistant's call-backs on Call Logs, in the browser. Rows are seeded through the
// store (core/call-backs-store) the sweep and the dialler use, in each state; the tracker lists them
// in words at 1280 and 375 px, light and dark, with axe; Cancel, Take it myself, and a 409 in words
// from a page that had gone stale.
import { eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { claimDueCallBacks, recordCallBackTry } from '../../core/call-backs-store/claim.js';
import { ownerCallBackAction, recordCallBackWish } from '../../core/call-backs-store/store.js';
import { tablesOf } from '../../core/db/schema.js';
import { insertCalls } from '../calls/seed.js';
import { darkSeriousViolations, seriousViolations } from './support/axe.js';
import { activeCustomer } from '../helpers/accounts.js';
import { adoptSession, attachScreenshot, customerPage, expectToast, useE2E, until } from './support/browser.js';

const e2e = useE2E();
const TRACKER = "The assistant's call-backs";

/** A voicemail from `number` that asked to be rung back, and its call-back, due at `dueAt`. */
async function wish(userId: number, number: string, summary: string, dueAt: Date) {
  const [call] = await insertCalls(e2e.server, [{ userId, status: 'voicemail', fromNumber: number, aiSummary: summary, duration: 30 }]);
  return recordCallBackWish(e2e.server.database.db, { userId, firstCallId: call!.id, callerNumber: number, dueAt, source: 'voicemail' }, new Date());
}

/** Takes the business's due call-backs as the dialler does: only those due by `at` (the others are due in 2030). */
async function claim(at: Date) {
  return claimDueCallBacks(e2e.server.database.db, at, 100);
}

async function stored(id: number) {
  const { callBacks } = tablesOf(e2e.server.database.db);
  return (await e2e.server.database.db.select().from(callBacks).where(eq(callBacks.id, id)).limit(1))[0]!;
}

const rowsOf = (page: Page) => page.getByRole('list', { name: TRACKER }).getByRole('listitem');
const rowOf = (page: Page, shown: string) => rowsOf(page).filter({ hasText: shown });

describe("the assistant's call-backs on Call Logs", () => {
  it('lists each state in words with when it is due, its tries, the first call and the assistant\'s own call, at 1280 and 375 px, light and dark', async ({ annotate }) => {
    const { page, customer } = await customerPage(e2e, { businessName: 'Tracker Ltd' });
    const userId = customer.user.id;
    const db = e2e.server.database.db;
    const later = new Date('2030-07-04T15:00:00Z');

    // One at a time, each due in the past and claimed before the next is made.
    const calling = await wish(userId, '+447700900702', 'Needs a leak looked at.', new Date('2026-01-05T10:00:00Z'));
    expect((await claim(new Date('2026-01-05T10:00:00Z'))).map((r) => r.id)).toEqual([calling.id]);

    const answered = await wish(userId, '+447700900703', 'Asks for a boiler service.', new Date('2026-01-06T10:00:00Z'));
    expect((await claim(new Date('2026-01-06T10:00:00Z'))).map((r) => r.id)).toEqual([answered.id]);
    const [own] = await insertCalls(e2e.server, [{ userId, status: 'answered', fromNumber: '+447700900703', duration: 95, aiSummary: 'Rang back: booked a boiler service for Tuesday at 10am.' }]);
    await recordCallBackTry(db, answered.id, { outcome: 'answered', at: new Date('2026-01-06T10:00:00Z'), callId: own!.id, retryAt: null }, new Date());

    const noAnswer = await wish(userId, '+447700900704', 'Wants a quote for a new kitchen tap.', new Date('2026-01-07T10:00:00Z'));
    await claim(new Date('2026-01-07T10:00:00Z'));
    await recordCallBackTry(db, noAnswer.id, { outcome: 'no-answer', at: new Date('2026-01-07T10:00:00Z'), retryAt: new Date('2026-01-07T10:30:00Z') }, new Date());
    expect((await claim(new Date('2026-01-07T10:30:00Z'))).map((r) => r.id)).toEqual([noAnswer.id]);
    await recordCallBackTry(db, noAnswer.id, { outcome: 'busy', at: new Date('2026-01-07T10:30:00Z'), retryAt: null }, new Date());

    const done = await wish(userId, '+447700900705', 'Radiator is cold upstairs.', later);
    expect((await ownerCallBackAction(db, { userId }, done.id, 'take', new Date())).kind).toBe('changed');
    const cancelled = await wish(userId, '+447700900706', 'Asks about opening hours.', later);
    expect((await ownerCallBackAction(db, { userId }, cancelled.id, 'cancel', new Date())).kind).toBe('changed');
    // Last, so it is the newest: the list's first row.
    await wish(userId, '+447700900701', 'Wants a quote for a new boiler.', later);

    await page.goto('/dashboard');
    await page.getByRole('heading', { name: TRACKER }).waitFor();
    await until(async () => expect(await rowsOf(page).count()).toBe(6));
    const expected: [string, string, string][] = [
      ['+44 770 090 0701', 'Waiting', 'Due 04/07/2030 at 16:00 · No tries yet'],
      ['+44 770 090 0702', 'Calling', 'Due 05/01/2026 at 10:00 · No tries yet'],
      ['+44 770 090 0703', 'Answered', '1 try: answered'],
      ['+44 770 090 0704', 'No answer', '2 tries: last busy'],
      ['+44 770 090 0705', 'Done', 'Closed by you'],
      ['+44 770 090 0706', 'Cancelled', 'No tries yet'],
    ];
    for (const [number, state, line] of expected) {
      const row = rowOf(page, number);
      await row.getByText(state, { exact: true }).waitFor();
      await row.getByText(line, { exact: false }).waitFor();
    }
    expect(await rowsOf(page).first().innerText()).toContain('+44 770 090 0701');
    // Cancel only on the waiting one; Take it myself on waiting, no answer and cancelled.
    expect(await page.getByRole('button', { name: /^Cancel the call-back to/ }).count()).toBe(1);
    await rowOf(page, '+44 770 090 0701').getByRole('button', { name: 'Cancel the call-back to +44 770 090 0701' }).waitFor();
    expect(await page.getByRole('button', { name: /^Take it myself/ }).count()).toBe(3);
    for (const number of ['+44 770 090 0701', '+44 770 090 0704', '+44 770 090 0706']) await rowOf(page, number).getByRole('button', { name: `Take it myself: ring ${number}` }).waitFor();

    expect(await seriousViolations(page)).toEqual([]);
    expect(await darkSeriousViolations(page)).toEqual([]);
    await attachScreenshot(page, annotate, 'call-backs-tracker-1280');

    // The first call's summary opens its Call Details; the assistant's own call opens its own.
    const answeredRow = rowOf(page, '+44 770 090 0703');
    expect(await answeredRow.getByRole('link', { name: 'Asks for a boiler service.' }).getAttribute('href')).toBe(`/dashboard?call=${answered.firstCallId}`);
    await answeredRow.getByRole('link', { name: 'Asks for a boiler service.' }).click();
    const dialog = page.getByRole('dialog', { name: 'Call Details' });
    await dialog.getByText('Asks for a boiler service.', { exact: true }).waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    const ownLink = answeredRow.getByRole('link', { name: "The assistant's call: recording and summary" });
    expect(await ownLink.getAttribute('href')).toBe(`/dashboard?call=${own!.id}`);
    // Keyboard: the link is reached and opened with Enter.
    await ownLink.focus();
    await page.keyboard.press('Enter');
    await dialog.getByText('Rang back: booked a boiler service for Tuesday at 10am.', { exact: true }).waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    // Only a call-back the assistant made links to its call.
    expect(await rowsOf(page).getByRole('link', { name: "The assistant's call: recording and summary" }).count()).toBe(1);

    await page.setViewportSize({ width: 375, height: 800 });
    for (const [number, state] of expected) await rowOf(page, number).getByText(state, { exact: true }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    expect(await darkSeriousViolations(page)).toEqual([]);
    await page.evaluate('document.documentElement.classList.add("dark")');
    await attachScreenshot(page, annotate, 'call-backs-tracker-375-dark');
  });

  it('is shown to a business that rings its own callers back only once there are call-backs, and to one whose assistant rings back at once', async () => {
    const { page, customer } = await customerPage(e2e, { businessName: 'Own Ringing Ltd' });
    const read = Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/api/call-backs') && r.ok()),
      page.waitForResponse((r) => r.url().endsWith('/api/user/call-handling') && r.ok()),
    ]);
    await page.goto('/dashboard');
    await read;
    await page.getByText('No calls yet').waitFor();
    expect(await page.getByRole('heading', { name: TRACKER }).count()).toBe(0);

    const saved = await customer.client.request('PUT', '/api/user/call-handling', { callBacksBy: 'agent-after', callBackAfterMinutes: 15 });
    expect(saved.status).toBe(200);
    await page.reload();
    await page.getByRole('heading', { name: TRACKER }).waitFor();
    await page.getByText('None yet: when a caller asks to be rung back, it shows here.').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('Cancel and Take it myself change the row and the stored call-back; a page gone stale shows the 409 in words', async () => {
    const { page, customer } = await customerPage(e2e, { businessName: 'Actions Ltd' }, { width: 375, height: 800 });
    const userId = customer.user.id;
    const db = e2e.server.database.db;
    // Due in 2029: nothing else waiting in this file is due by then (the first test's are in 2030).
    const due = new Date('2029-01-02T10:00:00Z');
    const toCancel = await wish(userId, '+447700900711', 'Wants a quote for guttering.', due);
    const toTake = await wish(userId, '+447700900712', 'Asks about a blocked drain.', due);

    const dialled: string[] = [];
    page.on('request', (r) => r.url().startsWith('tel:') && dialled.push(r.url()));
    await page.goto('/dashboard');
    await until(async () => expect(await rowsOf(page).count()).toBe(2));

    await rowOf(page, '+44 770 090 0711').getByRole('button', { name: 'Cancel the call-back to +44 770 090 0711' }).click();
    await expectToast(page, 'Call-back cancelled: the assistant will not ring them.');
    await rowOf(page, '+44 770 090 0711').getByText('Cancelled', { exact: true }).waitFor();
    expect(await rowOf(page, '+44 770 090 0711').getByRole('button', { name: /^Cancel/ }).count()).toBe(0);
    expect(await stored(toCancel.id)).toMatchObject({ state: 'cancelled', doneBy: 'owner-cancelled' });

    await rowOf(page, '+44 770 090 0712').getByRole('button', { name: 'Take it myself: ring +44 770 090 0712' }).click();
    await expectToast(page, 'Yours now: the assistant will not ring them.');
    const taken = rowOf(page, '+44 770 090 0712');
    await taken.getByText('Done', { exact: true }).waitFor();
    await taken.getByText('Closed by you', { exact: true }).waitFor();
    expect(await taken.getByRole('link', { name: 'Ring +44 770 090 0712' }).getAttribute('href')).toBe('tel:+447700900712');
    expect(await taken.getByRole('button', { name: /^Take it myself/ }).count()).toBe(0);
    expect(await stored(toTake.id)).toMatchObject({ state: 'done', doneBy: 'owner' });
    // Without a touch screen the link waits for the owner: nothing was dialled.
    expect(dialled).toEqual([]);

    // A third arrives; the page shows it waiting. Then the assistant rings and reaches the caller
    // behind the page's back: Cancel on the stale row answers 409, said in words, and the row moves on.
    const stale = await wish(userId, '+447700900713', 'Wants the boiler looked at.', due);
    await page.reload();
    await rowOf(page, '+44 770 090 0713').getByText('Waiting', { exact: true }).waitFor();
    expect((await claim(due)).map((r) => r.id)).toEqual([stale.id]);
    await recordCallBackTry(db, stale.id, { outcome: 'answered', at: due, retryAt: null }, new Date());
    await rowOf(page, '+44 770 090 0713').getByRole('button', { name: 'Cancel the call-back to +44 770 090 0713' }).click();
    await expectToast(page, 'They have already been rung back: the assistant spoke to them.');
    await rowOf(page, '+44 770 090 0713').getByText('Answered', { exact: true }).waitFor();
    expect(await rowOf(page, '+44 770 090 0713').getByRole('button', { name: /^Cancel/ }).count()).toBe(0);
    expect(await stored(stale.id)).toMatchObject({ state: 'answered' });

    expect(await seriousViolations(page)).toEqual([]);
    expect(await darkSeriousViolations(page)).toEqual([]);
  });

  it('on a phone\'s touch screen Take it myself rings the caller straight away with the tel: link', async () => {
    const customer = await activeCustomer(e2e.server, { businessName: 'Phone Ltd' });
    const ctx = await e2e.browser.newContext({ viewport: { width: 375, height: 800 }, hasTouch: true, isMobile: true, baseURL: e2e.server.url, serviceWorkers: 'block' });
    try {
      const page = await ctx.newPage();
      page.setDefaultTimeout(10_000);
      await adoptSession(page, customer.client, e2e.server.url);
      const dialled: string[] = [];
      page.on('request', (r) => r.url().startsWith('tel:') && dialled.push(r.url()));
      const cb = await wish(customer.user.id, '+447700900721', 'Wants a fence panel replaced.', new Date('2029-01-03T10:00:00Z'));
      await page.goto('/dashboard');
      await rowOf(page, '+44 770 090 0721').getByRole('button', { name: 'Take it myself: ring +44 770 090 0721' }).click();
      await until(() => expect(dialled).toEqual(['tel:+447700900721']));
      expect(await stored(cb.id)).toMatchObject({ state: 'done', doneBy: 'owner' });
    } finally {
      await ctx.close();
    }
  });

  it("marking the first call called back on its card closes its waiting call-back, and the tracker says so", async () => {
    const { page, customer } = await customerPage(e2e, { businessName: 'Rang First Ltd' });
    const cb = await wish(customer.user.id, '+447700900731', 'Wants a new radiator fitted.', new Date('2029-01-04T10:00:00Z'));
    await page.goto('/dashboard');
    await rowOf(page, '+44 770 090 0731').getByText('Waiting', { exact: true }).waitFor();
    const card = page.getByRole('list', { name: 'Calls' }).getByRole('listitem').filter({ hasText: '+44 770 090 0731' });
    await card.getByRole('button', { name: 'Mark called back' }).click();
    await rowOf(page, '+44 770 090 0731').getByText('Done', { exact: true }).waitFor();
    await rowOf(page, '+44 770 090 0731').getByText('Closed by you', { exact: true }).waitFor();
    expect(await stored(cb.id)).toMatchObject({ state: 'done', doneBy: 'owner' });
  });
});
