// After an upgrade the browser may hold an index.html naming chunks the server no longer has.
// The server must answer those with a 404 (never the HTML page), keep index.html revalidated,
// and the console must recover by reloading once, or show a card with Reload.
import { describe, expect, it } from 'vitest';
import type { Page, Response } from 'playwright-core';
import { attachScreenshot, customerPage, useE2E, until } from './support/browser.js';

const e2e = useE2E();

const get = (path: string, headers: Record<string, string> = {}) => fetch(`${e2e.server.url}${path}`, { headers });

describe('cache headers of the built console', () => {
  it('serves index.html and every SPA route no-cache, hashed assets immutable for a year', async () => {
    for (const path of ['/', '/dashboard', '/dashboard/analytics', '/reset-password/abc', '/no/such/page']) {
      const res = await get(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type'), path).toMatch(/^text\/html/);
      expect(res.headers.get('cache-control'), path).toBe('no-cache');
    }
    const html = await (await get('/')).text();
    const assets = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]!);
    expect(assets.some((a) => a.endsWith('.js'))).toBe(true);
    expect(assets.some((a) => a.endsWith('.css'))).toBe(true);
    for (const asset of assets) {
      const res = await get(asset);
      expect(res.status, asset).toBe(200);
      expect(res.headers.get('cache-control'), asset).toBe('public, max-age=31536000, immutable');
    }
  });

  it('answers an unknown asset or other missing file with a 404 that is not the HTML page', async () => {
    for (const path of ['/assets/Analytics-0ld0ld00.js', '/assets/index-0ld0ld00.css', '/assets/nested/x.js', '/favicon.ico', '/robots.txt', '/old-main.js.map']) {
      const res = await get(path);
      expect(res.status, path).toBe(404);
      expect(res.headers.get('content-type') ?? '', path).not.toMatch(/text\/html/);
    }
    const api = await get('/api/no-such-thing');
    expect(api.status).toBe(404);
    expect(api.headers.get('content-type')).toMatch(/application\/json/);
  });
});

/** Sends the browser's request for the Analytics chunk to a name the server does not have (an old build's). */
async function staleAnalyticsChunk(page: Page, times: number): Promise<{ served404: () => number }> {
  let rewritten = 0;
  let notFound = 0;
  page.on('response', (r: Response) => {
    if (r.url().includes('/assets/Analytics-stale') && r.status() === 404) notFound++;
  });
  await page.route(/\/assets\/Analytics-[^/]+\.js$/, async (route) => {
    if (rewritten >= times) return route.continue();
    rewritten++;
    return route.continue({ url: `${e2e.server.url}/assets/Analytics-stale${rewritten}.js` });
  });
  return { served404: () => notFound };
}

/** Counts the documents the page loads (the first visit and every reload). */
function countDocuments(page: Page): () => number {
  let n = 0;
  page.on('load', () => n++);
  return () => n;
}

describe('a chunk missing after an upgrade', () => {
  it('reloads once and shows the page when the reload brings the new build', async ({ annotate }) => {
    const { page } = await customerPage(e2e, { businessName: 'Upgrade Ltd' });
    const documents = countDocuments(page);
    const stale = await staleAnalyticsChunk(page, 1);
    await page.goto('/dashboard');
    await page.getByRole('heading', { name: 'Call Logs' }).waitFor();
    expect(documents()).toBe(1);

    await page.getByRole('link', { name: 'Analytics' }).click();
    await page.getByText('Track call patterns and performance metrics').waitFor();
    expect(stale.served404()).toBe(1);
    expect(documents()).toBe(2);
    expect(new URL(page.url()).pathname).toBe('/dashboard/analytics');
    expect(await page.getByText('This page could not be loaded').count()).toBe(0);
    await attachScreenshot(page, annotate, 'upgrade-recovered-1280');
  });

  it('shows a card with Reload instead of a white page when the chunk stays missing', async ({ annotate }) => {
    const { page } = await customerPage(e2e, { businessName: 'Still Stale Ltd' });
    const documents = countDocuments(page);
    const stale = await staleAnalyticsChunk(page, Number.POSITIVE_INFINITY);
    await page.goto('/dashboard');
    await page.getByRole('heading', { name: 'Call Logs' }).waitFor();

    await page.getByRole('link', { name: 'Analytics' }).click();
    const card = page.getByRole('alert').filter({ hasText: 'This page could not be loaded' });
    await card.waitFor();
    // One automatic reload, then the card: no reload loop.
    expect(documents()).toBe(2);
    expect(stale.served404()).toBe(2);
    // The dashboard shell stays usable around the card.
    await page.getByRole('link', { name: 'Call Logs' }).waitFor();
    await attachScreenshot(page, annotate, 'upgrade-card-1280');

    await card.getByRole('button', { name: 'Reload' }).click();
    await until(() => expect(documents()).toBe(3));
    await card.waitFor();
    await page.unrouteAll({ behavior: 'ignoreErrors' });
    await page.getByRole('button', { name: 'Reload' }).click();
    await page.getByText('Track call patterns and performance metrics').waitFor();
  });
});
