// Loading and failure look like it: skeletons while a read is out, no figures when it failed,
// and real figures (0 included) only from an answer.
import { describe, expect, it } from 'vitest';
import type { Page, Route } from 'playwright-core';
import { adminPage, attachScreenshot, customerPage, useE2E, until } from './support/browser.js';

const e2e = useE2E();

/** Holds the page's requests to an API path until released, so a test sees the loading state for as long as it looks. */
async function hold(page: Page, apiPath: string): Promise<{ release: () => Promise<void>; held: () => number }> {
  const routes: Route[] = [];
  await page.route((url) => url.pathname === apiPath, (route) => void routes.push(route));
  return {
    held: () => routes.length,
    release: async () => {
      await page.unroute((url) => url.pathname === apiPath);
      await Promise.all(routes.map((r) => r.continue()));
    },
  };
}

const statTexts = (page: Page) => page.getByTestId('stat-value').allInnerTexts();

describe('call logs', () => {
  it('shows skeleton stat cards, not zeros, while the calls load, then the real figures', async ({ annotate }) => {
    const { page } = await customerPage(e2e, {}, { width: 375, height: 740 });
    const calls = await hold(page, '/api/call-logs');
    await page.goto('/dashboard');
    await page.getByText('Loading call logs...').waitFor();
    await until(() => expect(calls.held()).toBe(1));
    expect(await statTexts(page)).toEqual(['', '', '', '']);
    expect(await page.getByTestId('stat-value').locator('[data-skeleton]').count()).toBe(4);
    await attachScreenshot(page, annotate, 'call-logs-loading-375-light');

    await calls.release();
    await page.getByText('No calls yet').waitFor();
    expect(await statTexts(page)).toEqual(['0', '0', '0', '0%']);
  });

  it('shows no figures when the calls could not be loaded', async ({ annotate }) => {
    const { page } = await customerPage(e2e, {}, { dark: true });
    await page.route(
      (url) => url.pathname === '/api/call-logs',
      (route) => route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ message: 'The database is busy. Please try again.' }) }),
    );
    await page.goto('/dashboard');
    await page.getByText('Could not load call logs').waitFor();
    await page.getByText('The database is busy. Please try again.').waitFor();
    expect(await statTexts(page)).toEqual(['—', '—', '—', '—']);
    expect(await page.getByTestId('stat-value').getByLabel('Not available').count()).toBe(4);
    await attachScreenshot(page, annotate, 'call-logs-failed-1280-dark');
  });
});

describe('analytics', () => {
  it('shows skeletons with the loading text while analytics load', async ({ annotate }) => {
    const { page } = await customerPage(e2e);
    const analytics = await hold(page, '/api/analytics');
    await page.goto('/dashboard/analytics');
    const status = page.getByRole('status').filter({ hasText: 'Loading analytics...' });
    await status.waitFor();
    expect(await status.locator('[data-skeleton]').count()).toBeGreaterThanOrEqual(4);
    await attachScreenshot(page, annotate, 'analytics-loading-1280-light');
    await analytics.release();
    await page.getByText('No Data Yet').waitFor();
    expect(await page.locator('[data-skeleton]').count()).toBe(0);
  });
});

describe('admin dashboard', () => {
  it('shows no user counts when the users could not be loaded', async () => {
    const { page } = await adminPage(e2e);
    await page.route(
      (url) => url.pathname === '/api/admin/users',
      (route) => route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ message: 'Something broke' }) }),
    );
    await page.goto('/dashboard/admin');
    await page.getByText('Could not load users').waitFor();
    expect((await statTexts(page)).slice(0, 3)).toEqual(['—', '—', '—']);
  });

  it('shows no agent capacity figures when they could not be loaded', async () => {
    const { page } = await adminPage(e2e);
    await page.route(
      (url) => url.pathname === '/api/admin/agent-capacity',
      (route) => route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ message: 'Something broke' }) }),
    );
    await page.goto('/dashboard/admin');
    await page.getByRole('table', { name: 'All Users' }).waitFor();
    await until(async () => expect((await statTexts(page)).slice(3)).toEqual(['—', '—']));
  });
});

describe('landing page', () => {
  it('names the home link while the product name is still loading, then by the product name', async () => {
    // axe found the link nameless once in CI: the scan ran before /api/meta answered.
    const page = await e2e.page({ width: 375, height: 800 });
    const meta = await hold(page, '/api/meta');
    await page.goto('/');
    await page.getByRole('heading', { name: /Never Miss Another/ }).waitFor();
    await until(() => expect(meta.held()).toBe(1));
    const nav = page.getByRole('navigation', { name: 'Main' });
    expect(await nav.getByRole('link', { name: 'Home', exact: true }).count()).toBe(1);

    await meta.release();
    const { productName } = (await (await fetch(`${e2e.server.url}/api/meta`)).json()) as { productName: string };
    expect(productName).not.toBe('');
    await nav.getByRole('link', { name: productName, exact: true }).waitFor();
  });
});
