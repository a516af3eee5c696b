// The console at phone width and in the dark theme, with screenshots kept in test-results/screenshots for review.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { adminPage, customerPage, screenshotPath, useE2E, until } from './support/browser.js';

const e2e = useE2E();

/** Nothing wider than the viewport: no sideways scrolling of the page itself. */
const overflowX = (page: Page) => page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');

describe('375 px phone width', () => {
  it('lays out the landing page and its sign-up dialog without sideways scrolling', async () => {
    const page = await e2e.page({ width: 375, height: 812 });
    await page.goto('/');
    await page.getByRole('heading', { name: /Never Miss Another/ }).waitFor();
    expect(await overflowX(page)).toBeLessThanOrEqual(0);
    await page.screenshot({ path: screenshotPath('landing-375'), fullPage: true });
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Start Free Trial' }).click();
    await page.getByRole('dialog', { name: 'Start Your 7-Day Free Trial' }).waitFor();
    expect(await overflowX(page)).toBeLessThanOrEqual(0);
  });

  it('hides the sidebar behind the header toggle on the dashboard', async () => {
    const { page } = await customerPage(e2e, { businessName: 'Phone Width Ltd' }, { width: 375, height: 812 });
    await page.goto('/dashboard');
    await page.getByRole('heading', { name: 'Call Logs' }).waitFor();
    expect(await overflowX(page)).toBeLessThanOrEqual(0);
    // Closed: off-screen and out of the accessibility tree.
    expect(await page.getByRole('link', { name: 'Analytics' }).count()).toBe(0);
    const analytics = page.getByRole('link', { name: 'Analytics' });

    await page.getByRole('button', { name: 'Toggle sidebar' }).click();
    await until(async () => expect(await analytics.evaluate((el) => el.getBoundingClientRect().left >= 0)).toBe(true));
    await page.screenshot({ path: screenshotPath('dashboard-375-menu') });
    await analytics.click();
    await page.getByRole('heading', { name: 'Analytics' }).waitFor();
    // Navigating closes the drawer again.
    await until(async () => expect(await page.getByRole('link', { name: 'Analytics' }).count()).toBe(0));
    expect(await overflowX(page)).toBeLessThanOrEqual(0);
  });
});

describe('theme', () => {
  it('toggles to dark, keeps it across reloads, and back to light', async () => {
    const { page } = await customerPage(e2e);
    await page.goto('/dashboard');
    await page.getByRole('heading', { name: 'Call Logs' }).waitFor();
    const isDark = () => page.evaluate<boolean>("document.documentElement.classList.contains('dark')");
    expect(await isDark()).toBe(false);
    await page.getByRole('button', { name: 'Switch to dark theme' }).click();
    expect(await isDark()).toBe(true);
    const bg = await page.evaluate<string>("getComputedStyle(document.querySelector('aside')).backgroundColor");
    expect(bg).not.toBe('rgb(255, 255, 255)');
    await page.reload();
    await page.getByRole('heading', { name: 'Call Logs' }).waitFor();
    expect(await isDark()).toBe(true);
    await page.screenshot({ path: screenshotPath('call-logs-dark') });
    await page.getByRole('button', { name: 'Switch to light theme' }).click();
    expect(await isDark()).toBe(false);
  });

  it('collapses the sidebar to icons on a wide screen', async () => {
    const { page } = await adminPage(e2e);
    await page.goto('/dashboard/admin');
    await page.getByRole('heading', { name: 'Admin Dashboard' }).waitFor();
    const width = () => page.locator('aside').evaluate((el) => el.getBoundingClientRect().width);
    expect(await width()).toBeGreaterThan(200);
    await page.getByRole('button', { name: 'Toggle sidebar' }).click();
    await until(async () => expect(await width()).toBeLessThan(80));
    // Icon-only items keep their names for screen readers and tooltips.
    await page.getByRole('link', { name: 'Signup Approvals' }).click();
    await page.getByRole('heading', { name: 'Signup Approvals' }).waitFor();
    await page.screenshot({ path: screenshotPath('approvals-collapsed') });
  });

  it('renders the admin screens in the dark theme', async () => {
    const { page } = await adminPage(e2e, { dark: true });
    await page.goto('/dashboard/admin');
    await page.getByRole('heading', { name: 'Admin Dashboard' }).waitFor();
    await page.getByRole('row').filter({ hasText: 'admin@example.co.uk' }).waitFor();
    // Dark for real: the root carries the theme and the sidebar is not painted white.
    expect(await page.evaluate<boolean>("document.documentElement.classList.contains('dark')")).toBe(true);
    expect(await page.evaluate<string>("getComputedStyle(document.querySelector('aside')).backgroundColor")).not.toBe('rgb(255, 255, 255)');
    await page.screenshot({ path: screenshotPath('admin-dark'), fullPage: true });
  });
});
