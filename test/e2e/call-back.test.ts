// The "To call back" tracker in the browser: the filter beside the status filter, the badge
// and the Mark called back button on the card, and the Called Back row in Call Details.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { calls, users } from '../helpers/tables.js';
import { customerPage, useE2E, until } from './support/browser.js';

const e2e = useE2E();

describe('to call back', () => {
  it('filters the callers still waiting, and marking one called back takes it off the list', async () => {
    const { page, customer } = await customerPage(e2e, { businessName: 'Ring Back Ltd' });
    const at = Date.parse('2026-07-04T12:30:00Z');
    const rows = await e2e.server.database.db
      .insert(calls)
      .values([
        { userId: customer.user.id, fromNumber: '+447700900123', toNumber: '+447700900999', status: 'voicemail', duration: 30, createdAt: new Date(at), aiSummary: 'Wants a quote.' },
        { userId: customer.user.id, fromNumber: '+447700900456', toNumber: '+447700900999', status: 'missed', createdAt: new Date(at - 3600_000) },
        { userId: customer.user.id, fromNumber: '+447700900789', toNumber: '+447700900999', status: 'answered', duration: 90, createdAt: new Date(at - 7200_000) },
      ])
      .returning();

    await page.goto('/dashboard');
    const cards = page.getByRole('list', { name: 'Calls' }).getByRole('listitem');
    await until(async () => expect(await cards.count()).toBe(3));
    const filter = page.getByRole('button', { name: 'To call back (2)' });
    await filter.click();
    await until(async () => expect(await cards.count()).toBe(2));
    expect(await filter.getAttribute('aria-pressed')).toBe('true');
    const missed = cards.filter({ hasText: '+44 770 090 0456' });
    await missed.getByText('To call back', { exact: true }).waitFor();

    await missed.getByRole('button', { name: 'Mark called back' }).click();
    await page.getByText('Marked as called back').first().waitFor();
    await until(async () => expect(await cards.count()).toBe(1));
    await page.getByRole('button', { name: 'To call back (1)' }).waitFor();
    const stored = (await e2e.server.database.db.select().from(calls).where(eq(calls.id, rows[1]!.id)).limit(1))[0]!;
    expect(stored.calledBackAt).toBeInstanceOf(Date);

    // Back to every call: the marked one says so, and Call Details has when.
    await page.getByRole('button', { name: 'To call back (1)' }).click();
    await until(async () => expect(await cards.count()).toBe(3));
    await cards.filter({ hasText: '+44 770 090 0456' }).getByText('Called back', { exact: true }).waitFor();
    await cards.filter({ hasText: '+44 770 090 0456' }).getByRole('button', { name: '+44 770 090 0456' }).click();
    const dialog = page.getByRole('dialog', { name: 'Call Details' });
    await dialog.getByText('Called Back', { exact: true }).waitFor();
    await dialog.getByRole('button', { name: 'Undo called back' }).click();
    await dialog.getByText('Not yet').waitFor();
    expect((await e2e.server.database.db.select().from(calls).where(eq(calls.id, rows[1]!.id)).limit(1))[0]!.calledBackAt).toBeNull();
  });

  it('a withheld caller reads "Withheld number" and is not to call back; neither it nor a blocked caller has a Call back button; Call Details has its own', async () => {
    const { page, customer } = await customerPage(e2e, { businessName: 'Withheld Ltd' }, { width: 375, height: 800 });
    const at = Date.parse('2026-07-04T12:30:00Z');
    const base = { userId: customer.user.id, toNumber: '+447700900999', status: 'voicemail' as const, duration: 30 };
    await e2e.server.database.db
      .insert(calls)
      .values([
        { ...base, fromNumber: 'anonymous', createdAt: new Date(at), aiSummary: 'Asks about prices.' },
        { ...base, fromNumber: '+447700900222', status: 'missed', createdAt: new Date(at - 60_000), callerTag: 'blocked' },
        { ...base, fromNumber: '+447700900333', createdAt: new Date(at - 120_000) },
      ]);
    await page.goto('/dashboard');
    const cards = page.getByRole('list', { name: 'Calls' }).getByRole('listitem');
    await until(async () => expect(await cards.count()).toBe(3));
    // Only the caller who left a number is waiting.
    await page.getByRole('button', { name: 'To call back (1)' }).waitFor();
    const withheld = cards.filter({ hasText: 'Withheld number' });
    await withheld.getByRole('button', { name: 'Withheld number' }).waitFor();
    expect(await withheld.getByText('anonymous').count()).toBe(0);
    expect(await withheld.getByText('To call back', { exact: true }).count()).toBe(0);
    expect(await page.locator('a[href="tel:anonymous"]').count()).toBe(0);
    expect(await withheld.getByRole('link', { name: /Call back/ }).count()).toBe(0);
    expect(await cards.filter({ hasText: '+44 770 090 0222' }).getByRole('link', { name: /Call back/ }).count()).toBe(0);
    await cards.filter({ hasText: '+44 770 090 0333' }).getByRole('link', { name: 'Call back +44 770 090 0333' }).waitFor();

    await withheld.getByRole('button', { name: 'Withheld number' }).click();
    let dialog = page.getByRole('dialog', { name: 'Call Details' });
    await dialog.getByText('Withheld number', { exact: true }).waitFor();
    expect(await dialog.getByRole('link', { name: /Call back/ }).count()).toBe(0);
    await page.keyboard.press('Escape');
    await cards.filter({ hasText: '+44 770 090 0333' }).getByRole('button', { name: '+44 770 090 0333' }).click();
    dialog = page.getByRole('dialog', { name: 'Call Details' });
    expect(await dialog.getByRole('link', { name: 'Call back +44 770 090 0333' }).getAttribute('href')).toBe('tel:+447700900333');
  });

  it('a signed-out owner opening a call\'s link gets the login dialog and, signed in, lands on that call', async () => {
    const { customer } = await customerPage(e2e, { businessName: 'Link Ltd' });
    const [row] = await e2e.server.database.db
      .insert(calls)
      .values({ userId: customer.user.id, fromNumber: '+447700900444', toNumber: '+447700900999', status: 'voicemail', duration: 20, createdAt: new Date(), aiSummary: 'Linked call summary.' })
      .returning();
    const page = await e2e.page({ width: 375, height: 800 });
    await page.goto(`/dashboard?call=${row!.id}`);
    const login = page.getByRole('dialog', { name: 'Welcome Back' });
    await login.getByLabel('Email').fill(customer.email);
    await login.getByLabel('Password').fill(customer.password);
    await login.getByRole('button', { name: 'Log In' }).click();
    await page.waitForURL((u) => u.pathname === '/dashboard' && u.search === `?call=${row!.id}`);
    await page.getByRole('dialog', { name: 'Call Details' }).getByText('Linked call summary.').waitFor();
  });

  it('a return link to another site is not followed after login', async () => {
    const { customer } = await customerPage(e2e, { businessName: 'Elsewhere Ltd' });
    const page = await e2e.page();
    await page.goto(`/?next=${encodeURIComponent('//example.com/dashboard')}`);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Log In' }).click();
    const login = page.getByRole('dialog', { name: 'Welcome Back' });
    await login.getByLabel('Email').fill(customer.email);
    await login.getByLabel('Password').fill(customer.password);
    await login.getByRole('button', { name: 'Log In' }).click();
    await page.getByRole('heading', { name: 'Call Logs', exact: true }).waitFor();
    expect(new URL(page.url()).origin).toBe(e2e.server.url.replace(/\/$/, ''));
    expect(new URL(page.url()).pathname).toBe('/dashboard');
  });

  it('switches on the call-back reminder under Notification Settings', async () => {
    const { page, customer } = await customerPage(e2e, { businessName: 'Reminder Ltd' });
    await page.goto('/dashboard/notifications?section=delivery');
    const reminder = page.getByRole('combobox', { name: 'Call-back Reminder' });
    expect(await reminder.inputValue()).toBe('');
    await reminder.selectOption({ label: 'After 4 hours' });
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await page.getByText('Settings saved').first().waitFor();
    await until(async () =>
      expect((await e2e.server.database.db.select().from(users).where(eq(users.id, customer.user.id)).limit(1))[0]!.callbackReminderHours).toBe(4),
    );
  });
});
