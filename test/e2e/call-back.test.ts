// The "To call back" tracker in the browser: the filter beside the status filter, the badge
// and the Mark called back button on the card, and the Called Back row in Call Details.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { calls, users } from '../../core/db/schema.js';
import { customerPage, useE2E, until } from './support/browser.js';

const e2e = useE2E();

describe('to call back', () => {
  it('filters the callers still waiting, and marking one called back takes it off the list', async () => {
    const { page, customer } = await customerPage(e2e, { businessName: 'Ring Back Ltd' });
    const at = Date.parse('2026-07-04T12:30:00Z');
    const rows = e2e.server.database.db
      .insert(calls)
      .values([
        { userId: customer.user.id, fromNumber: '+447700900123', toNumber: '+447700900999', status: 'voicemail', duration: 30, createdAt: new Date(at), aiSummary: 'Wants a quote.' },
        { userId: customer.user.id, fromNumber: '+447700900456', toNumber: '+447700900999', status: 'missed', createdAt: new Date(at - 3600_000) },
        { userId: customer.user.id, fromNumber: '+447700900789', toNumber: '+447700900999', status: 'answered', duration: 90, createdAt: new Date(at - 7200_000) },
      ])
      .returning()
      .all();

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
    const stored = e2e.server.database.db.select().from(calls).where(eq(calls.id, rows[1]!.id)).get()!;
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
    expect(e2e.server.database.db.select().from(calls).where(eq(calls.id, rows[1]!.id)).get()!.calledBackAt).toBeNull();
  });

  it('switches on the call-back reminder under Notification Settings', async () => {
    const { page, customer } = await customerPage(e2e, { businessName: 'Reminder Ltd' });
    await page.goto('/dashboard/notifications');
    const reminder = page.getByRole('combobox', { name: 'Call-back Reminder' });
    expect(await reminder.inputValue()).toBe('');
    await reminder.selectOption({ label: 'After 4 hours' });
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await page.getByText('Settings saved').first().waitFor();
    await until(async () =>
      expect(e2e.server.database.db.select().from(users).where(eq(users.id, customer.user.id)).get()!.callbackReminderHours).toBe(4),
    );
  });
});
