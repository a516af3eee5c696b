// Issue 44's last leftover: Call handling on a phone. Below Tailwind's sm (640 px) each section is
// a disclosure (a button named by its title, aria-expanded/aria-controls) showing a one-line
// summary of what is set while closed, so the page is a few screens tall instead of 3,577 px; each
// section opens, saves as before and shows its toast; a refused value opens its section with the
// message. At 1280 px the sections are the plain cards they were (call-handling.test.ts).
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { loadCallHandling } from '../../core/call-handling/store.js';
import { seriousViolations } from './support/axe.js';
import { attachScreenshot, customerPage, expectToast, until, useE2E } from './support/browser.js';
import { outsideViewport } from './support/viewport-fit.js';

// An appliance with an outbound line, so every section has its full set of fields.
const e2e = useE2E({ OUTBOUND_ENDPOINT: 'PJSIP/{number}@uk-did' });

const HEIGHT = 740;
const SECTIONS = ['Call handling', 'Business hours', 'How calls are answered', 'Block and VIP lists'] as const;

const toggle = (page: Page, name: (typeof SECTIONS)[number]) => page.getByRole('button', { name, exact: true });
const pageHeight = (page: Page) => page.evaluate<number>('document.documentElement.scrollHeight');

/** The line under a section's title, which its toggle has as its description. */
async function expectSummary(page: Page, name: (typeof SECTIONS)[number], text: string) {
  const id = await toggle(page, name).getAttribute('aria-describedby');
  await until(async () => expect(await page.locator(`[id="${id}"]`).innerText()).toBe(text));
}

async function expanded(page: Page, name: (typeof SECTIONS)[number]): Promise<boolean> {
  return (await toggle(page, name).getAttribute('aria-expanded')) === 'true';
}

async function setOpen(page: Page, name: (typeof SECTIONS)[number], open: boolean) {
  if ((await expanded(page, name)) !== open) await toggle(page, name).click();
  await until(async () => expect(await expanded(page, name)).toBe(open));
}

describe('Call handling on a phone', () => {
  for (const width of [320, 375, 414]) {
    it(`at ${width} px is a few screens tall with its sections closed; each opens, saves and says so; a refused value opens its section`, async ({ annotate }) => {
      const { page, customer } = await customerPage(e2e, { businessName: `Handling ${width} Ltd` }, { width, height: HEIGHT });
      await page.goto('/dashboard/notifications?section=call-handling');
      const form = page.getByRole('form', { name: 'Call handling' });
      await form.waitFor();

      // Closed, each section is its title and what is set (the defaults here), nothing more.
      for (const name of SECTIONS) expect(await expanded(page, name), name).toBe(false);
      await expectSummary(page, 'Call handling', 'No number to put calls through to yet');
      await expectSummary(page, 'Business hours', 'Off: every call is handled as open hours');
      await expectSummary(page, 'How calls are answered', 'Closed hours: Voicemail Only. Withheld: answer them as usual');
      await expectSummary(page, 'Block and VIP lists', 'No numbers yet.');
      expect(await form.getByLabel('Put calls through to').isVisible()).toBe(false);
      const closed = await pageHeight(page);
      // The one-line summaries are cut with an ellipsis, never widening the page.
      expect(await outsideViewport(page)).toEqual([]);
      expect(await seriousViolations(page)).toEqual([]);
      await attachScreenshot(page, annotate, `call-handling-closed-${width}`);

      for (const name of SECTIONS) await setOpen(page, name, true);
      const open = await pageHeight(page);
      // Printed, never asserted beyond the fit: what a phone scrolls through closed and open.
      console.log(`call handling at ${width} px: ${closed} px tall closed, ${open} px open (viewport ${HEIGHT} px)`);
      expect(closed).toBeLessThan(2 * HEIGHT);
      expect(await outsideViewport(page)).toEqual([]);
      expect(await seriousViolations(page)).toEqual([]);
      for (const name of SECTIONS) await setOpen(page, name, false);

      // Each section on its own: opened, changed, saved with the same button and toast as ever.
      const save = page.getByRole('button', { name: 'Save call handling' });
      await setOpen(page, 'Call handling', true);
      await form.getByLabel('Put calls through to').fill('07400 123456');
      await save.click();
      await expectToast(page, 'Call handling saved');
      await until(async () => expect((await loadCallHandling(e2e.server.database.db, customer.user.id)).transferNumber).toBe('+447400123456'));
      await setOpen(page, 'Call handling', false);
      await expectSummary(page, 'Call handling', 'Put through to +44 740 012 3456, ring for 20 s');

      await setOpen(page, 'Business hours', true);
      await page.getByRole('switch', { name: 'Use business hours' }).click();
      await page.getByRole('checkbox', { name: 'Scotland' }).check();
      await save.click();
      await until(async () => expect(await loadCallHandling(e2e.server.database.db, customer.user.id)).toMatchObject({ hoursEnabled: true, holidayNations: ['england-wales', 'scotland'] }));
      await expectToast(page, 'Call handling saved');
      await setOpen(page, 'Business hours', false);
      await expectSummary(page, 'Business hours', 'On: open 5 days a week, bank holidays of England & Wales, Scotland');

      await setOpen(page, 'How calls are answered', true);
      await form.getByLabel('Withheld numbers').selectOption({ label: 'Take a message only' });
      await save.click();
      await until(async () => expect((await loadCallHandling(e2e.server.database.db, customer.user.id)).withheld).toBe('message-only'));
      await expectToast(page, 'Call handling saved');
      await setOpen(page, 'How calls are answered', false);
      await expectSummary(page, 'How calls are answered', 'Closed hours: Voicemail Only. Withheld: take a message only');

      // The lists have no Save: a number goes on at once, as on a wide screen.
      await setOpen(page, 'Block and VIP lists', true);
      const block = page.getByRole('region', { name: 'Block list' });
      await block.getByLabel('Add to block list').fill('07700 900666');
      await block.getByRole('button', { name: 'Add' }).click();
      await block.getByRole('list').getByText('+44 770 090 0666').waitFor();
      expect((await loadCallHandling(e2e.server.database.db, customer.user.id)).blockList).toEqual(['+447700900666']);
      await setOpen(page, 'Block and VIP lists', false);
      await expectSummary(page, 'Block and VIP lists', '1 blocked, 0 VIP');

      // A refused value in a closed section: the save opens it, marks the field and shows why.
      await setOpen(page, 'Call handling', true);
      const ring = form.getByLabel('Ring for (seconds)');
      await ring.fill('99');
      await setOpen(page, 'Call handling', false);
      await save.click();
      await expectToast(page, 'Error');
      await until(async () => expect(await expanded(page, 'Call handling')).toBe(true));
      await form.getByRole('alert').getByText('Ring time must be a whole number of seconds from 5 to 60.').waitFor();
      expect(await ring.getAttribute('aria-invalid')).toBe('true');
      expect(await ring.isVisible()).toBe(true);
      // The sections it does not concern stay closed, and nothing was stored.
      for (const name of SECTIONS.slice(1)) expect(await expanded(page, name), name).toBe(false);
      expect((await loadCallHandling(e2e.server.database.db, customer.user.id)).transferTimeoutSeconds).toBe(20);
      expect(await seriousViolations(page)).toEqual([]);
      await attachScreenshot(page, annotate, `call-handling-refused-${width}`);
    });
  }

  it('at 1280 px shows the sections as plain cards with every field, no disclosure', async () => {
    const { page } = await customerPage(e2e, {}, { width: 1280, height: 800 });
    await page.goto('/dashboard/notifications?section=call-handling');
    const form = page.getByRole('form', { name: 'Call handling' });
    await form.waitFor();
    for (const name of ['Business hours', 'How calls are answered', 'Block and VIP lists']) await page.getByRole('heading', { name, exact: true }).waitFor();
    for (const name of SECTIONS) expect(await toggle(page, name).count(), name).toBe(0);
    for (const label of ['Put calls through to', 'Monday opens', 'Closed-hours greeting (Optional)', 'Withheld numbers']) expect(await form.getByLabel(label).isVisible(), label).toBe(true);
    expect(await page.getByLabel('Add to block list').isVisible()).toBe(true);
  });
});
