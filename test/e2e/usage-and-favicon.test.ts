// Usage & Costs when the provider has no prepaid balance at all (static numbers, no gateway account):
// no figure and no "Low balance" warning. And the console's favicon.
import { describe, expect, it } from 'vitest';
import { adminPage, useE2E } from './support/browser.js';

const e2e = useE2E({ NUMBER_PROVIDER: 'static', STATIC_NUMBERS: '+447700900001' });

describe('usage without a balance', () => {
  it('shows no balance and no Low balance warning when the provider reports none', async () => {
    const { page, admin } = await adminPage(e2e);
    const usage = (await admin.get(`/api/admin/${(await admin.get('/api/meta')).body.provider as string}-usage`)).body as { balance: { available?: boolean } };
    expect(usage.balance.available).toBe(false);
    await page.goto('/dashboard/api-usage');
    const card = page.locator('section').filter({ hasText: 'Account Balance' });
    await card.getByText('N/A', { exact: true }).waitFor();
    expect(await card.getByText('Low balance - top up soon').count()).toBe(0);
    expect(await card.getByText('Healthy').count()).toBe(0);
  });
});

describe('favicon', () => {
  it('every page names an SVG icon the server serves', async () => {
    const page = await e2e.page();
    await page.goto('/');
    const href = await page.locator('link[rel="icon"]').getAttribute('href');
    expect(href).toBe('/favicon.svg');
    const res = await fetch(new URL(href!, e2e.server.url));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
  });
});
