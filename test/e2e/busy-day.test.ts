// Issue 44, the console on an owner's busy day: on a phone the first calls are on the first
// screen and a filter's effect is visible where the results start; the owner's own test call is
// never a caller to ring back. Each new state is checked with axe-core.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { formatPhone } from '../../contract/phone-display.js';
import { lineCodes } from '../../contract/forwarding-codes.js';
import { callHandling, calls, phoneNumbers, users } from '../helpers/tables.js';
import { latestCode, textsTo } from '../helpers/destinations.js';
import { seriousViolations } from './support/axe.js';
import { attachScreenshot, customerPage, expectToast, logInThroughDialog, useE2E, until } from './support/browser.js';

const e2e = useE2E();

const PHONES = [320, 375, 414] as const;
const PHONE_HEIGHT = 740;

async function expectNoSeriousViolations(page: Page) {
  expect(await seriousViolations(page)).toEqual([]);
}

/** Where an element starts and how tall it is, in the viewport's coordinates. */
async function box(locator: ReturnType<Page['locator']>) {
  const b = await locator.boundingBox();
  if (!b) throw new Error('not laid out');
  return b;
}

/** A busy owner's calls: 40 today, the three urgent ones among the oldest (below the first screen). */
async function seedBusyDay(userId: number) {
  const now = Date.now();
  await e2e.server.database.db.insert(calls).values(
    Array.from({ length: 40 }, (_, i) => ({
      userId,
      fromNumber: `+4477009${String(30000 + i)}`,
      toNumber: '+447700900999',
      status: (['voicemail', 'missed', 'answered'] as const)[i % 3]!,
      duration: 40 + i,
      createdAt: new Date(now - (i + 1) * 60_000),
      aiSummary: `Caller ${i} asks for a quote for a boiler service next week and left a number to ring back.`,
      transcription: i % 3 === 0 ? `Hello, this is caller ${i}.` : null,
      recordingFile: i % 3 === 0 ? `call-${i}.wav` : null,
      urgency: i >= 30 && i < 33 ? ('urgent' as const) : ('normal' as const),
      urgencyReason: i >= 30 && i < 33 ? 'Water coming through the ceiling.' : null,
    })),
  );
}

describe('Call Logs on a phone', () => {
  for (const width of PHONES) {
    it(`at ${width} px the first call card is on the first screen, about half its old height, and Urgent changes what is visible`, async ({ annotate }) => {
      const { page, customer } = await customerPage(e2e, { businessName: `Busy ${width} Ltd` }, { width, height: PHONE_HEIGHT });
      await seedBusyDay(customer.user.id);
      await page.goto('/dashboard');
      const cards = page.getByRole('list', { name: 'Calls' }).getByRole('listitem');
      await until(async () => expect(await cards.count()).toBe(40));

      // The card itself, under its day's heading.
      const first = await box(cards.first().locator(':scope > div'));
      // The whole first card (top and bottom) is on the first screen without scrolling.
      expect(first.y).toBeGreaterThan(0);
      expect(first.y + first.height).toBeLessThan(PHONE_HEIGHT);
      // The card that was ~320 px tall with its buttons one per line (a voicemail with recording,
      // transcript, Call back and Mark called back: every action) is now about half that.
      expect(first.height).toBeLessThan(200);
      // Its actions are one row: every button's top is the same.
      const actions = cards.first().getByRole('group', { name: 'Actions' }).locator('a, button');
      expect(await actions.evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')))).toEqual([
        expect.stringMatching(/^Call back /),
        'Play Recording',
        'View Transcript',
        'Mark called back: done',
      ]);
      // SPEC's words on the buttons themselves, whole (two lines where the row is narrow), none cut off.
      const words = (await actions.allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
      expect(words.slice(1, 3)).toEqual(['Play Recording', 'View Transcript']);
      const cut = await actions.evaluateAll((els) => els.flatMap((e) => [...e.querySelectorAll('span')].filter((s) => s.scrollWidth > s.clientWidth + 0.5 || s.getBoundingClientRect().right > e.getBoundingClientRect().right + 0.5).map((s) => s.textContent)));
      expect(cut).toEqual([]);
      const actionTops = await actions.evaluateAll((els) => els.map((e) => Math.round(e.getBoundingClientRect().top + e.getBoundingClientRect().height / 2)));
      expect(new Set(actionTops).size).toBe(1);
      // Each filter's count shows whole (issue 57, item 7): no filter's words are cut.
      const filters = page.getByRole('button', { name: /^(To call back|Urgent|Screened) \(\d+\)$/ });
      expect(await filters.count()).toBe(3);
      const cutFilters = await filters.evaluateAll((els) => els.flatMap((e) => [...e.querySelectorAll('span')].filter((s) => s.scrollWidth > s.clientWidth + 0.5 || s.getBoundingClientRect().right > e.getBoundingClientRect().right + 0.5).map((s) => s.textContent)));
      expect(cutFilters).toEqual([]);
      await expectNoSeriousViolations(page);
      await attachScreenshot(page, annotate, `busy-day-call-logs-${width}`, { fullPage: false });

      // No urgent call is on the first screen before the filter...
      const onScreen = async () => {
        const texts = await cards.evaluateAll((els, h) => els.filter((e) => { const r = e.getBoundingClientRect(); return r.top < h && r.bottom > 0; }).map((e) => e.textContent ?? ''), PHONE_HEIGHT);
        return { all: texts.length, urgent: texts.filter((t) => t.includes('Water coming through the ceiling.')).length };
      };
      expect((await onScreen()).urgent).toBe(0);
      await page.getByRole('button', { name: 'Urgent (3)' }).click();
      // ...and after it, the urgent calls are what the screen shows, with a line saying so.
      await until(async () => expect(await cards.count()).toBe(3));
      await page.getByRole('status').filter({ hasText: 'Showing 3 of 40 calls: urgent' }).waitFor();
      // Every card on the screen is an urgent one (at least two fit).
      const after = await onScreen();
      expect(after.urgent).toBe(after.all);
      expect(after.urgent).toBeGreaterThanOrEqual(2);
      const filtered = await box(cards.first().locator(':scope > div'));
      expect(filtered.y + filtered.height).toBeLessThan(PHONE_HEIGHT);
      await expectNoSeriousViolations(page);
      await attachScreenshot(page, annotate, `busy-day-urgent-${width}`, { fullPage: false });
    });
  }
});

describe('the owner\'s own test call', () => {
  for (const width of [375, 1280]) {
    it(`at ${width} px is marked a test, is not to call back and has no Call back button; Call Details says so`, async ({ annotate }) => {
      const { page, customer } = await customerPage(e2e, { businessName: `Tester ${width} Ltd` }, { width, height: PHONE_HEIGHT });
      const at = Date.now();
      await e2e.server.database.db.insert(calls).values([
        // "Call my line" from the console: the box's own number, a message left.
        { userId: customer.user.id, fromNumber: '+447700900999', toNumber: '+447700900999', status: 'voicemail', duration: 12, createdAt: new Date(at - 60_000), testCall: true, aiSummary: 'Testing my line.' },
        { userId: customer.user.id, fromNumber: '+447700900321', toNumber: '+447700900999', status: 'missed', createdAt: new Date(at - 120_000) },
      ]);
      await page.goto('/dashboard');
      const cards = page.getByRole('list', { name: 'Calls' }).getByRole('listitem');
      await until(async () => expect(await cards.count()).toBe(2));
      await page.getByRole('button', { name: 'To call back (1)' }).waitFor();
      const test = cards.filter({ hasText: 'Testing my line.' });
      await test.getByText('Test call', { exact: true }).waitFor();
      expect(await test.getByText('To call back', { exact: true }).count()).toBe(0);
      expect(await test.getByRole('link', { name: /Call back/ }).count()).toBe(0);
      expect(await test.getByRole('button', { name: /Mark called back/ }).count()).toBe(0);

      await page.getByRole('button', { name: 'To call back (1)' }).click();
      await until(async () => expect(await cards.count()).toBe(1));
      expect(await cards.filter({ hasText: 'Testing my line.' }).count()).toBe(0);
      await page.getByRole('button', { name: 'To call back (1)' }).click();

      await test.getByRole('button', { name: '+44 770 090 0999' }).click();
      const dialog = page.getByRole('dialog', { name: 'Call Details' });
      await dialog.getByText('Your own "Call my line" call: nobody to call back').waitFor();
      expect(await dialog.getByRole('link', { name: /Call back/ }).count()).toBe(0);
      await expectNoSeriousViolations(page);
      await attachScreenshot(page, annotate, `busy-day-call-my-line-${width}`, { fullPage: false });
    });
  }
});

describe('call handling saves what the owner touched', () => {
  for (const width of [375, 1280]) {
    it(`at ${width} px business hours save with a stored transfer number the rules now refuse left untouched; the field offers no example on a box that cannot transfer`, async ({ annotate }) => {
      const { page, customer } = await customerPage(e2e, { businessName: `Hours ${width} Ltd` }, { width, height: PHONE_HEIGHT });
      // Saved before the Channel Islands rule (07911 is Guernsey): written as it was stored then.
      expect((await customer.client.request('PUT', '/api/user/call-handling', { withheld: 'normal' })).status).toBe(200);
      await e2e.server.database.db.update(callHandling).set({ transferNumber: '+447911123456' }).where(eq(callHandling.userId, customer.user.id));

      await page.goto('/dashboard/notifications?section=call-handling');
      // A phone shows the sections closed (call-handling-phone.test.ts): open the two this edits.
      if (width < 640) for (const name of ['Call handling', 'Business hours']) await page.getByRole('button', { name, exact: true }).click();
      const transfer = page.getByRole('textbox', { name: 'Put calls through to' });
      await transfer.waitFor();
      expect(await transfer.getAttribute('placeholder')).toBeNull();
      await page.getByRole('switch', { name: 'Use business hours' }).click();
      await page.getByRole('button', { name: 'Save call handling' }).click();
      await expectToast(page, 'Call handling saved');
      const [row] = await e2e.server.database.db.select().from(callHandling).where(eq(callHandling.userId, customer.user.id));
      expect(row!.hoursEnabled).toBe(true);
      expect(row!.transferNumber).toBe('+447911123456');
      await expectNoSeriousViolations(page);
      await attachScreenshot(page, annotate, `busy-day-hours-saved-${width}`, { fullPage: false });

      // Touching the number is what asks for it to be right, and says why on the field.
      await transfer.fill('07911 123457');
      await page.getByRole('button', { name: 'Save call handling' }).click();
      await page.getByText(/Calls are only put through to UK mobile and landline numbers: this is a Channel Islands or Isle of Man number/).first().waitFor();
      expect(await transfer.getAttribute('aria-invalid')).toBe('true');
      await expectNoSeriousViolations(page);
    });
  }
});

describe('a new notification number', () => {
  for (const width of [375, 1280]) {
    it(`at ${width} px: saved, the owner is at the code box told where it went; confirmed, the field shows the new number and a second save texts nobody`, async ({ annotate }) => {
      const { page, customer } = await customerPage(e2e, { businessName: `Number ${width} Ltd` }, { width, height: PHONE_HEIGHT });
      const OLD = '+447700900111';
      const NEW = `+4477009002${width === 375 ? '22' : '33'}`;
      await e2e.server.database.db.update(users).set({ notificationNumber: OLD, smsEnabled: true }).where(eq(users.id, customer.user.id));

      await page.goto('/dashboard/notifications?section=delivery');
      const field = page.getByLabel('Notification Number');
      const status = page.getByTestId('destination-status');
      await status.getByText('In use: +44 770 090 0111').waitFor();
      await field.fill(NEW);
      await page.getByRole('button', { name: 'Save Changes' }).click();
      // The server's words, not just "Settings saved".
      await expectToast(page, `Enter the code we sent to ${NEW} to start using it.`);
      // Taken to the code box, in the section, on screen.
      const code = page.getByRole('textbox', { name: `Code sent to ${NEW}` });
      const codeId = await code.getAttribute('id');
      await until(async () => expect(await page.evaluate<string | null>('document.activeElement && document.activeElement.id')).toBe(codeId));
      const box = (await code.boundingBox())!;
      expect(box.y).toBeGreaterThanOrEqual(0);
      expect(box.y + box.height).toBeLessThanOrEqual(PHONE_HEIGHT);
      await status.getByText(/^Waiting for the code we sent to \+44 770 090 02\d\d: notifications go to \+44 770 090 0111 until you enter it\.$/).waitFor();
      expect(await field.inputValue()).toBe(NEW);
      expect(await seriousViolations(page)).toEqual([]);
      await attachScreenshot(page, annotate, `busy-day-code-entry-${width}`, { fullPage: false });

      await code.fill(latestCode(e2e.server, 'sms', NEW));
      await code.press('Enter');
      await expectToast(page, `Notification number confirmed: call notifications now go to ${NEW}.`);
      await status.getByText(`In use: ${formatPhone(NEW)}`).waitFor();
      expect(await code.count()).toBe(0);
      expect(await field.inputValue()).toBe(NEW);
      expect(await seriousViolations(page)).toEqual([]);

      // Saving again (another change in the section) texts no code to either number.
      const textsBefore = textsTo(e2e.server, OLD).length + textsTo(e2e.server, NEW).length;
      await page.getByRole('switch', { name: 'Weekly call-back digest' }).click();
      await page.getByRole('button', { name: 'Save Changes' }).click();
      await expectToast(page, 'Settings saved');
      expect(textsTo(e2e.server, OLD).length + textsTo(e2e.server, NEW).length).toBe(textsBefore);
      expect(textsTo(e2e.server, OLD).filter((t) => /confirmation code/.test(t.body))).toEqual([]);
      const me = await customer.client.get<{ user: { notificationNumber: string; weeklyDigestEnabled: boolean } }>('/api/auth/me');
      expect(me.body.user).toMatchObject({ notificationNumber: NEW, weeklyDigestEnabled: false });
    });
  }
});

describe('forwarding: one set of codes for the owner\'s line', () => {
  for (const width of [320, 375, 414, 1280]) {
    it(`at ${width} px the line type is picked once; its codes (contract/forwarding-codes.ts) come first, whole, and the checklist names its code; signed in on another device, the same codes`, async ({ annotate }) => {
      const { page, customer } = await customerPage(e2e, { businessName: `Forward ${width} Ltd` }, { width, height: PHONE_HEIGHT });
      const did = `+4477009005${String(width).slice(-2)}`;
      await e2e.server.database.db.insert(phoneNumbers).values({ phoneNumber: did, provider: 'static', providerSid: did, userId: customer.user.id, assignedAt: new Date() });

      // Before picking: the checklist gives a landline's code (a keypad without +), and says where to choose another.
      await page.goto('/dashboard');
      const steps = page.getByRole('list', { name: 'Set-up steps' });
      await steps.getByText(lineCodes('landline', did).rows[1]!.set, { exact: true }).waitFor();
      expect(await steps.getByText(`*61*${did}#`).count()).toBe(0);
      await steps.getByRole('link', { name: 'Another kind of line? Choose it on Phone Numbers' }).click();

      // Phone Numbers: the picker and its codes before SPEC's guide.
      const own = page.getByRole('table', { name: /Forwarding codes for/ });
      await own.waitFor();
      const guide = page.getByRole('heading', { name: 'Call Forwarding Setup' });
      expect((await own.boundingBox())!.y).toBeLessThan((await guide.boundingBox())!.y);
      await page.getByLabel('Your business line').selectOption('mobile');
      const mobile = lineCodes('mobile', did);
      for (const r of mobile.rows) await own.getByText(r.set, { exact: true }).waitFor();
      expect(await own.locator('tbody tr').count()).toBe(mobile.rows.length);
      // Each code wraps, if at all, only between its parts: no part (the number among them) is split over lines.
      const split = await own.locator('code > span').evaluateAll((els) => els.filter((e) => new Set(Array.from(e.getClientRects(), (r: { top: number }) => Math.round(r.top))).size > 1).map((e) => e.textContent));
      expect(split).toEqual([]);
      expect(await seriousViolations(page)).toEqual([]);
      await attachScreenshot(page, annotate, `busy-day-forwarding-mobile-${width}`, { fullPage: false });

      // Picked once: a reload keeps it, and the checklist now names the mobile's code.
      await page.reload();
      expect(await page.getByLabel('Your business line').inputValue()).toBe('mobile');
      expect(await page.getByText('These steps are for a mobile phone.', { exact: false }).count()).toBe(0);
      await page.getByLabel('Your business line').selectOption('virgin');
      await page.getByText('These steps are for a mobile phone. For your Virgin Media landline, use the codes in Codes for your line above.').waitFor();
      await page.getByLabel('Your business line').selectOption('mobile');
      await page.goto('/dashboard');
      await steps.getByText(mobile.rows[1]!.set, { exact: true }).waitFor();
      await steps.getByText(/^On your mobile dial/).waitFor();
      expect(await seriousViolations(page)).toEqual([]);

      // Saved with the owner, not in this browser: signed in on another device, the same codes first.
      const laptop = await e2e.page({ width: 1280, height: 800 });
      await logInThroughDialog(laptop, customer.email, customer.password);
      await laptop.getByRole('list', { name: 'Set-up steps' }).getByText(mobile.rows[1]!.set, { exact: true }).waitFor();
      await laptop.goto('/dashboard/phone-numbers');
      await until(async () => expect(await laptop.getByLabel('Your business line').inputValue()).toBe('mobile'));
    });
  }
});

describe('the leftovers on Analytics', () => {
  for (const width of [375, 1280]) {
    it(`at ${width} px a Recent Activity row opens Call Details, and the urgency period select is as wide as its content`, async () => {
      const { page, customer } = await customerPage(e2e, { businessName: `Recent ${width} Ltd` }, { width, height: PHONE_HEIGHT });
      await e2e.server.database.db.insert(calls).values({ userId: customer.user.id, fromNumber: '+447700900654', toNumber: '+447700900999', status: 'voicemail', duration: 33, createdAt: new Date(), aiSummary: 'Recent activity summary.' });
      await page.goto('/dashboard/analytics');
      const period = page.getByRole('combobox', { name: 'Urgency period' });
      await period.waitFor();
      expect((await period.boundingBox())!.width).toBeLessThan(200);
      await page.getByRole('table', { name: 'Recent Activity' }).getByRole('link', { name: '+44 770 090 0654' }).click();
      await page.getByRole('dialog', { name: 'Call Details' }).getByText('Recent activity summary.').waitFor();
      expect(new URL(page.url()).pathname).toBe('/dashboard');
      expect(await seriousViolations(page)).toEqual([]);
    });
  }
});
