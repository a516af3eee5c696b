// Less scrolling for an owner on a phone, and the admin and signed-out leftovers (issue 29):
// Notification Settings in sections with one save each and the unsaved-changes guard on leaving
// a section or the page; an Urgent filter beside To call back; the first-run checklist gone once
// calls arrive and under "Your line is not answering calls"; All Users cells that stay in their
// column at 1280 px; no console error on the signed-out landing page.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { Dialog, Page } from 'playwright-core';
import { calls, users } from '../helpers/tables.js';
import { ApiClient } from '../helpers/client.js';
import { activeCustomer, signupBody } from '../helpers/accounts.js';
import { seriousViolations } from './support/axe.js';
import { adminPage, attachScreenshot, customerPage, expectToast, logInThroughDialog, useE2E, until } from './support/browser.js';
import { cellsSpilling, outsideViewport } from './support/viewport-fit.js';

const e2e = useE2E({ NUMBER_PROVIDER: 'static', STATIC_NUMBERS: '+447700900001,+447700900002,+447700900003' });

/** Answers the next confirm as told and records what it asked. */
function answerConfirm(page: Page, asked: string[], accept: boolean) {
  page.once('dialog', (d: Dialog) => {
    asked.push(d.message());
    void (accept ? d.accept() : d.dismiss());
  });
}

describe('Notification Settings in sections', () => {
  it('shows one section at a time on a phone, each with one save, opened by keyboard too', async ({ annotate }) => {
    const { page } = await customerPage(e2e, { businessName: 'Sections Ltd' }, { width: 375, height: 740 });
    await page.goto('/dashboard/notifications');
    const tabs = page.getByRole('tablist', { name: 'Settings sections' });
    await tabs.waitFor({ timeout: 30_000 });
    expect(await tabs.getByRole('tab').allInnerTexts()).toEqual(['Answering', 'Greeting', 'Delivery', 'Call handling', 'Screening', 'Webhooks', 'Alerts']);
    const heights: Record<string, number> = {};
    for (const [name, ready] of [
      // On a phone the Answering cards are closed to their titles (issue 57).
      ['Answering', 'AI Voice Agent Mode'],
      ['Greeting', 'Call Greeting'],
      ['Delivery', 'Delivery Settings'],
      ['Call handling', 'Business hours'],
      ['Screening', 'Screened Callers'],
      ['Webhooks', 'Send Test Event'],
      // Chromium here has no push service, so the section says so and keeps its one save (the text delay).
      ['Alerts', 'This device and your other devices'],
    ] as const) {
      await tabs.getByRole('tab', { name }).click();
      await until(async () => expect(await tabs.getByRole('tab', { name }).getAttribute('aria-selected')).toBe('true'));
      const panel = page.getByRole('tabpanel', { name });
      await panel.getByText(ready).first().waitFor();
      // One save button in the section, and none of another section's.
      expect(await page.getByRole('button', { name: /^Save/ }).count(), name).toBe(1);
      expect(await panel.getByRole('button', { name: /^Save/ }).count(), name).toBe(1);
      expect(await outsideViewport(page), name).toEqual([]);
      expect(await seriousViolations(page), name).toEqual([]);
      heights[name] = await page.evaluate<number>('document.documentElement.scrollHeight');
      await attachScreenshot(page, annotate, `notifications-${name.toLowerCase().replace(' ', '-')}-375-light`);
    }
    await annotate(`page height at 375 px by section: ${JSON.stringify(heights)}`);

    // Keyboard: arrows move along the tabs, Enter opens one; focus alone does not.
    await tabs.getByRole('tab', { name: 'Alerts' }).focus();
    await page.keyboard.press('Home');
    expect(await page.evaluate<string | undefined>('document.activeElement?.textContent')).toBe('Answering');
    await page.keyboard.press('ArrowRight');
    expect(await page.evaluate<string | undefined>('document.activeElement?.textContent')).toBe('Greeting');
    expect(await tabs.getByRole('tab', { name: 'Alerts' }).getAttribute('aria-selected')).toBe('true');
    await page.keyboard.press('Enter');
    await page.getByRole('tabpanel', { name: 'Greeting' }).getByLabel('Business Name (Optional)').waitFor();
    expect(new URL(page.url()).searchParams.get('section')).toBe('greeting');
  });

  it('saves only the open section, and asks before leaving a section or the page with unsaved edits', async () => {
    const { page, customer } = await customerPage(e2e, { businessName: 'Guarded Ltd' });
    await page.goto('/dashboard/notifications?section=greeting');
    const tabs = page.getByRole('tablist', { name: 'Settings sections' });
    const name = page.getByLabel('Business Name (Optional)');
    // The first screen of a lazily loaded page, on a busy shared machine.
    await name.waitFor({ timeout: 30_000 });
    await name.fill('Guarded Company');
    const asked: string[] = [];

    // Leaving the section: dismissed keeps the edit in place.
    answerConfirm(page, asked, false);
    await tabs.getByRole('tab', { name: 'Delivery' }).click();
    await until(() => expect(asked).toEqual(['You have unsaved changes in this section. Leave it without saving them?']));
    expect(await tabs.getByRole('tab', { name: 'Greeting' }).getAttribute('aria-selected')).toBe('true');
    expect(await name.inputValue()).toBe('Guarded Company');

    // Leaving the page by a link still asks.
    answerConfirm(page, asked, false);
    await page.getByRole('link', { name: 'Analytics' }).click();
    await until(() => expect(asked).toHaveLength(2));
    expect(asked[1]).toBe('You have unsaved changes. Leave this page without saving them?');
    expect(new URL(page.url()).pathname).toBe('/dashboard/notifications');

    // Accepted: the other section opens, and the edit left behind is gone.
    answerConfirm(page, asked, true);
    await tabs.getByRole('tab', { name: 'Delivery' }).click();
    await page.getByRole('tabpanel', { name: 'Delivery' }).getByText('Delivery Settings').waitFor();
    expect(asked).toHaveLength(3);
    await tabs.getByRole('tab', { name: 'Greeting' }).click();
    expect(await name.inputValue()).toBe('Guarded Ltd');
    expect(asked).toHaveLength(3);

    // Saved: the field the owner changed only (issue 44: never another section's, nor an untouched one), and leaving no longer asks.
    await name.fill('Guarded Company');
    const request = page.waitForRequest((r) => r.url().endsWith('/api/user/settings') && r.method() === 'PATCH');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    expect(Object.keys((await request).postDataJSON()).sort()).toEqual(['businessName']);
    await expectToast(page, 'Settings saved');
    await tabs.getByRole('tab', { name: 'Answering' }).click();
    await page.getByRole('tabpanel', { name: 'Answering' }).getByText('Choose how your calls are answered').waitFor();
    expect(asked).toHaveLength(3);
    expect(((await customer.client.get('/api/auth/me')).body as { user: { businessName: string } }).user.businessName).toBe('Guarded Company');

    // Call handling keeps its own guard within the sections.
    await tabs.getByRole('tab', { name: 'Call handling' }).click();
    await page.getByLabel('Put calls through to').fill('07911 123456');
    answerConfirm(page, asked, false);
    await tabs.getByRole('tab', { name: 'Webhooks' }).click();
    await until(() => expect(asked).toHaveLength(4));
    expect(await tabs.getByRole('tab', { name: 'Call handling' }).getAttribute('aria-selected')).toBe('true');
  });
});

describe('the Urgent filter', () => {
  it('sits beside To call back and keeps only the calls marked urgent', async () => {
    const { page, customer } = await customerPage(e2e, { businessName: 'Urgent Filter Ltd' });
    const now = Date.now();
    const row = (fromNumber: string, urgency: 'urgent' | 'normal' | 'low' | null, minutesAgo: number) => ({
      userId: customer.user.id,
      fromNumber,
      toNumber: '+447700900999',
      status: 'voicemail' as const,
      duration: 20,
      urgency,
      createdAt: new Date(now - minutesAgo * 60_000),
    });
    await e2e.server.database.db
      .insert(calls)
      .values([row('+447700900101', 'urgent', 1), row('+447700900102', 'normal', 2), row('+447700900103', null, 3), row('+447700900104', 'urgent', 4), row('+447700900105', 'low', 5)]);
    await page.goto('/dashboard');
    const list = page.getByRole('list', { name: 'Calls' });
    await until(async () => expect(await list.getByRole('listitem').count()).toBe(5));
    const urgent = page.getByRole('button', { name: 'Urgent (2)' });
    expect(await urgent.getAttribute('aria-pressed')).toBe('false');
    await urgent.click();
    expect(await urgent.getAttribute('aria-pressed')).toBe('true');
    await until(async () => expect(await list.getByRole('listitem').count()).toBe(2));
    expect(await list.getByRole('button', { name: /^\+44/ }).allInnerTexts()).toEqual(['+44 770 090 0101', '+44 770 090 0104']);
    await urgent.click();
    await until(async () => expect(await list.getByRole('listitem').count()).toBe(5));
  });
});

describe('first-run checklist', () => {
  it('is gone for an owner whose calls have arrived, though voicemail is still the default', async () => {
    const { page, customer } = await customerPage(e2e, { businessName: 'Busy Default Ltd' });
    expect((await customer.client.post('/api/phone-numbers/purchase')).status).toBe(201);
    await e2e.server.database.db.insert(calls).values(
      Array.from({ length: 3 }, (_, i) => ({
        userId: customer.user.id,
        fromNumber: `+44770090020${i}`,
        toNumber: '+447700900001',
        status: 'voicemail' as const,
        duration: 15,
        createdAt: new Date(Date.now() - i * 60_000),
      })),
    );
    await page.goto('/dashboard');
    await page.getByRole('list', { name: 'Calls' }).getByRole('listitem').first().waitFor();
    expect(await page.getByRole('list', { name: 'Set-up steps' }).count()).toBe(0);
    expect(await page.getByText('Get your line answering').count()).toBe(0);
  });

  it('does not show under "Your line is not answering calls"', async () => {
    const { page, customer } = await customerPage(e2e, { businessName: 'Lapsed New Owner Ltd' });
    await page.goto('/dashboard');
    // A new owner sees it while the line answers...
    await page.getByRole('list', { name: 'Set-up steps' }).waitFor();
    await e2e.server.database.db.update(users).set({ accountStatus: 'expired' }).where(eq(users.id, customer.user.id));
    await page.reload();
    // ...and not once it does not.
    await page.getByRole('alert').filter({ hasText: 'Your line is not answering calls' }).waitFor();
    await page.getByText('No calls yet').waitFor();
    expect(await page.getByRole('list', { name: 'Set-up steps' }).count()).toBe(0);
  });
});

describe('All Users at 1280 px', () => {
  it('keeps every cell inside its column', async ({ annotate }) => {
    const long = 'The Extraordinarily Long-Named Hair, Beauty and Wellbeing Emporium of Greater Manchester';
    await activeCustomer(e2e.server, { businessName: long, businessEmail: `owner.with.a.long.address.${Date.now()}@extraordinarily-long-domain.co.uk` });
    const lapsed = await activeCustomer(e2e.server, { businessName: 'Suspended Sole Trader' });
    await e2e.server.database.db.update(users).set({ accountStatus: 'suspended' }).where(eq(users.id, lapsed.user.id));
    await new ApiClient(e2e.server.url).post('/api/auth/signup', signupBody({ businessName: `${long} (pending)` }));
    const { page } = await adminPage(e2e, { width: 1280, height: 800 });
    await page.goto('/dashboard/admin');
    const table = page.getByRole('table', { name: 'All Users' });
    await table.getByRole('row').filter({ hasText: 'Suspended Sole Trader' }).waitFor();
    expect(await table.evaluate((t) => t.classList.contains('table-fixed'))).toBe(true);
    expect(await cellsSpilling(page, 'All Users')).toEqual([]);
    expect(await outsideViewport(page)).toEqual([]);
    // Cut text keeps its whole value in the tooltip.
    await table.getByTitle(long, { exact: true }).first().waitFor();
    await attachScreenshot(page, annotate, 'all-users-1280-light');
  });
});

describe('signed-out pages', () => {
  it('log no console error while checking for a session, before sign-in and after sign-out', async () => {
    const customer = await activeCustomer(e2e.server, { businessName: 'Quiet Console Ltd' });
    const page = await e2e.page();
    const errors: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(`${m.text()} (${m.location().url})`);
    });
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto('/');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Log In' }).waitFor();
    await page.goto('/reset-password');
    await page.getByText('Invalid reset link. Please request a new password reset.').waitFor();
    expect(errors).toEqual([]);

    // Signed in through the dialog, the session is read; signed out, the landing page is quiet again.
    await logInThroughDialog(page, customer.email, customer.password);
    await page.getByText('Monitor all your business calls in one place').waitFor();
    await page.getByRole('button', { name: /log ?out/i }).first().click();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Log In' }).waitFor();
    await page.reload();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Log In' }).waitFor();
    expect(errors).toEqual([]);
  });
});
