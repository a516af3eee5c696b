// Who may open what (SPEC.md §2 access rules, §6): redirects, hidden admin items, the 404 card.
import { describe, expect, it } from 'vitest';
import { adminPage, customerPage, useE2E } from './support/browser.js';

const e2e = useE2E();

const path = (url: string) => new URL(url).pathname;

describe('access rules', () => {
  it('sends a signed-out visitor from /dashboard to /', async () => {
    const page = await e2e.page();
    for (const protectedPath of ['/dashboard', '/dashboard/analytics', '/dashboard/approvals']) {
      await page.goto(protectedPath);
      await page.waitForURL((u) => u.pathname === '/');
      await page.getByRole('heading', { name: /Never Miss Another/ }).waitFor();
    }
  });

  it('sends a customer away from an admin route, and from / to the dashboard', async () => {
    const { page } = await customerPage(e2e);
    await page.goto('/dashboard/admin');
    await page.waitForURL((u) => u.pathname === '/dashboard');
    await page.getByRole('heading', { name: 'Call Logs' }).waitFor();
    expect(await page.getByRole('link', { name: 'Admin Dashboard' }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Signup Approvals' }).count()).toBe(0);

    const provider = ((await (await fetch(`${e2e.server.url}/api/meta`)).json()) as { provider: string }).provider;
    await page.goto(`/dashboard/${provider}-numbers`);
    await page.waitForURL((u) => u.pathname === '/dashboard');

    await page.goto('/');
    await page.waitForURL((u) => u.pathname === '/dashboard');
  });

  it('shows the admin group to an admin, highlights the current route, and opens the provider page named by /api/meta', async () => {
    const { page } = await adminPage(e2e);
    const provider = ((await (await fetch(`${e2e.server.url}/api/meta`)).json()) as { provider: string }).provider;
    await page.goto('/dashboard/admin');
    await page.getByRole('heading', { name: 'Admin Dashboard' }).waitFor();
    await page.getByRole('navigation', { name: 'Dashboard' }).getByText('Admin', { exact: true }).waitFor();
    expect(await page.getByRole('link', { name: 'Admin Dashboard' }).getAttribute('aria-current')).toBe('page');
    expect(await page.getByRole('link', { name: 'Call Logs' }).getAttribute('aria-current')).toBeNull();

    await page.getByRole('link', { name: 'Number Management' }).click();
    expect(path(page.url())).toBe(`/dashboard/${provider}-numbers`);
    await page.getByRole('heading', { name: 'Telephony Number Management' }).waitFor();

    // Admin rows carry no actions.
    await page.goto('/dashboard/admin');
    const adminRow = page.getByRole('row').filter({ hasText: 'admin@example.co.uk' });
    await adminRow.waitFor();
    expect(await adminRow.getByRole('button').count()).toBe(0);
    expect(await adminRow.getByRole('combobox').count()).toBe(0);
  });

  it('shows the 404 card for unknown paths, inside and outside the dashboard', async () => {
    const page = await e2e.page();
    await page.goto('/no/such/page');
    await page.getByRole('heading', { name: '404 Page Not Found' }).waitFor();

    const { page: signedIn } = await customerPage(e2e);
    await signedIn.goto('/dashboard/not-a-screen');
    await signedIn.getByRole('heading', { name: '404 Page Not Found' }).waitFor();

    // Unknown API paths stay JSON, not the console.
    const res = await fetch(`${e2e.server.url}/api/not-a-route`);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toContain('application/json');
  });

  it('logs out, clears the session and returns to the landing page', async () => {
    const { page } = await customerPage(e2e, { businessName: 'Logout Ltd' });
    await page.goto('/dashboard');
    await page.getByTestId('sidebar-name').getByText('Logout Ltd').waitFor();
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL((u) => u.pathname === '/');
    await page.getByRole('heading', { name: /Never Miss Another/ }).waitFor();
    await page.goto('/dashboard');
    await page.waitForURL((u) => u.pathname === '/');
  });
});
