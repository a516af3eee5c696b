// The account's state on every dashboard page: a banner when the trial is ending or over, or the
// account is expired, and Account's Trial Status box reading Expired for an expired account.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { users } from '../helpers/tables.js';
import { adminPage, attachScreenshot, customerPage, useE2E } from './support/browser.js';

const e2e = useE2E();
const DAY = 86_400_000;

async function setAccount(userId: number, fields: { accountStatus?: 'active' | 'expired'; trialExpiresAt?: Date | null }) {
  await e2e.server.database.db.update(users).set(fields).where(eq(users.id, userId));
}

describe('account banner', () => {
  it('warns on every page when the trial ends in 3 days or fewer', async ({ annotate }) => {
    const { page, customer } = await customerPage(e2e, { businessName: 'Ending Soon Ltd' });
    await setAccount(customer.user.id, { trialExpiresAt: new Date(Date.now() + 2 * DAY - 60_000) });
    for (const path of ['/dashboard', '/dashboard/analytics', '/dashboard/notifications', '/dashboard/account']) {
      await page.goto(path);
      const banner = page.getByTestId('account-banner');
      await banner.getByText('Your free trial ends in 2 days').waitFor();
      expect(await banner.getAttribute('role')).toBe('status');
    }
    await attachScreenshot(page, annotate, 'banner-trial-ending-1280-light');
  });

  it('says the line is not answering, with the help contact, once the trial is over', async () => {
    const { page, customer } = await customerPage(e2e, { businessName: 'Lapsed Ltd' });
    await setAccount(customer.user.id, { trialExpiresAt: new Date(Date.now() - DAY) });
    await page.goto('/dashboard');
    const banner = page.getByRole('alert').filter({ hasText: 'Your line is not answering calls' });
    await banner.getByText('Your free trial has ended.', { exact: false }).waitFor();
    const { name, email } = e2e.server.config.support;
    await banner.getByText(name, { exact: false }).waitFor();
    expect(await banner.getByRole('link', { name: email }).getAttribute('href')).toBe(`mailto:${email}`);
  });

  it('says an expired account is not answering and Account reads Expired, though its trial date is a week away', async ({ annotate }) => {
    const { page, customer } = await customerPage(e2e, { businessName: 'Expired Co' });
    await setAccount(customer.user.id, { accountStatus: 'expired', trialExpiresAt: new Date(Date.now() + 7 * DAY) });
    await page.goto('/dashboard/account');
    const banner = page.getByRole('alert').filter({ hasText: 'Your line is not answering calls' });
    await banner.getByText('Your account has expired.', { exact: false }).waitFor();
    const trial = page.getByTestId('trial-status');
    await trial.getByText('Expired', { exact: true }).waitFor();
    expect(await trial.getByText(/days? remaining/).count()).toBe(0);
    await trial.getByText('Contact support to extend your trial or upgrade your account.').waitFor();
    await attachScreenshot(page, annotate, 'account-expired-1280-light');

    await page.goto('/dashboard/analytics');
    await banner.waitFor();
  });

  it('shows no banner to an owner with a week of trial left, nor to an admin', async () => {
    const { page } = await customerPage(e2e, { businessName: 'Fine Ltd' });
    await page.goto('/dashboard/account');
    await page.getByTestId('trial-status').getByText(/days remaining/).waitFor();
    expect(await page.getByTestId('account-banner').count()).toBe(0);

    const { page: adminView } = await adminPage(e2e);
    await adminView.goto('/dashboard/admin');
    await adminView.getByRole('heading', { name: 'Admin Dashboard' }).waitFor();
    expect(await adminView.getByTestId('account-banner').count()).toBe(0);
  });

  it('fits the banner on a phone in the dark theme', async ({ annotate }) => {
    const { page, customer } = await customerPage(e2e, { businessName: 'Phone Expired' }, { width: 375, height: 740, dark: true });
    await setAccount(customer.user.id, { accountStatus: 'expired' });
    await page.goto('/dashboard');
    await page.getByTestId('account-banner').waitFor();
    expect(await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth')).toBeLessThanOrEqual(0);
    await attachScreenshot(page, annotate, 'banner-expired-375-dark');
  });
});
