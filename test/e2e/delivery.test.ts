// Compressed delivery and a dashboard that is ready when the login succeeds: brotli/gzip files
// built beside each asset and picked by Accept-Encoding; the dashboard's chunks fetched while
// the login dialog is open; the call-logs request sent with the navigation, not after it.
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { Request, Route } from 'playwright-core';
import { calls } from '../helpers/tables.js';
import { activeCustomer } from '../helpers/accounts.js';
import { attachScreenshot, useE2E, until } from './support/browser.js';

const e2e = useE2E();

/** Over real HTTP; with `identity` nothing is encoded, so the bytes read are the file's own. */
async function raw(path: string, encoding: string) {
  const res = await fetch(`${e2e.server.url}${path}`, { headers: { 'accept-encoding': encoding } });
  return { res, body: Buffer.from(await res.arrayBuffer()) };
}

describe('compressed delivery', () => {
  it('sends index.html and every landing asset brotli- or gzip-compressed as the browser asks, identical once decoded', async () => {
    const html = (await raw('/', 'identity')).body.toString();
    const assets = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]!);
    expect(assets.length).toBeGreaterThanOrEqual(2);
    for (const path of ['/', ...assets]) {
      const plain = await raw(path, 'identity');
      expect(plain.res.headers.get('content-encoding'), path).toBeNull();
      expect(plain.res.headers.get('vary'), path).toMatch(/accept-encoding/i);

      const br = await e2e.server.app.inject({ method: 'GET', url: path, headers: { 'accept-encoding': 'br, gzip' } });
      expect(br.headers['content-encoding'], path).toBe('br');
      expect(br.rawPayload.length, path).toBeLessThan(plain.body.length);
      expect(brotliDecompressSync(br.rawPayload).equals(plain.body), path).toBe(true);

      const gz = await e2e.server.app.inject({ method: 'GET', url: path, headers: { 'accept-encoding': 'gzip' } });
      expect(gz.headers['content-encoding'], path).toBe('gzip');
      expect(gunzipSync(gz.rawPayload).equals(plain.body), path).toBe(true);
    }
  });

  it('keeps the SPA routes compressed and no-cache', async () => {
    const res = await e2e.server.app.inject({ method: 'GET', url: '/dashboard/analytics', headers: { 'accept-encoding': 'br' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(brotliDecompressSync(res.rawPayload).toString()).toMatch(/<div id="root">/);
  });
});

describe('the first screen after login', () => {
  it('fetches the dashboard chunks while the dialog is open and sends the call-logs request before the screen has loaded', async ({ annotate }) => {
    const customer = await activeCustomer(e2e.server, { businessName: 'Quick Start Ltd' });
    await e2e.server.database.db
      .insert(calls)
      .values(
        Array.from({ length: 150 }, (_, i) => ({
          userId: customer.user.id,
          fromNumber: `+4477009${String(10000 + i)}`,
          toNumber: '+447700900999',
          status: 'voicemail' as const,
          duration: 30 + i,
          createdAt: new Date(Date.parse('2026-06-01T09:00:00Z') + i * 60_000),
          aiSummary: `Caller ${i} asks for a call back about a quote.`,
        })),
      );

    const page = await e2e.page();
    const requests: string[] = [];
    page.on('request', (r: Request) => requests.push(new URL(r.url()).pathname));
    // The screen's chunks are held: the call-logs request must not wait for them.
    const held: Route[] = [];
    let holding = true;
    await page.route(/\/assets\/(DashboardLayout|CallLogs)-[^/]+\.js$/, (route) => (holding ? void held.push(route) : route.continue()));

    await page.goto('/');
    await page.getByRole('heading', { name: /Never Miss Another/ }).waitFor();
    expect(requests.some((p) => /\/assets\/(DashboardLayout|CallLogs)-/.test(p))).toBe(false);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Log In' }).click();
    const dialog = page.getByRole('dialog', { name: 'Welcome Back' });
    await dialog.waitFor();
    // Opening the dialog starts both chunks.
    await until(() => expect(held.map((r) => new URL(r.request().url()).pathname.split('/').pop()!.split('-')[0]).sort()).toEqual(['CallLogs', 'DashboardLayout']));

    await dialog.getByLabel('Email').fill(customer.email);
    await dialog.getByLabel('Password').fill(customer.password);
    await dialog.getByRole('button', { name: 'Log In' }).click();
    await until(() => expect(requests).toContain('/api/call-logs'));
    expect(held.length).toBe(2); // still held: the request left before the screen existed

    holding = false;
    await Promise.all(held.map((r) => r.continue()));
    const cards = page.getByRole('list', { name: 'Calls' }).getByRole('listitem');
    await until(async () => expect(await cards.count()).toBe(150));
    // The prefetched answer is the screen's: one request, not two.
    expect(requests.filter((p) => p === '/api/call-logs')).toHaveLength(1);
    await attachScreenshot(page, annotate, 'call-logs-150-1280-light', { fullPage: false });
  });
});
