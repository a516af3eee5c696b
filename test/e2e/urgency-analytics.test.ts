// Urgency on the Analytics screen: the card added beside SPEC's, with its period select.
import { describe, expect, it } from 'vitest';
import { calls } from '../helpers/tables.js';
import { customerPage, useE2E, until } from './support/browser.js';

const e2e = useE2E();
const DAY = 86_400_000;

describe('urgency in analytics', () => {
  it('shows calls by urgency over the last 30 days, and over all time when chosen', async () => {
    const { page, customer } = await customerPage(e2e, { businessName: 'Urgent Ltd' });
    const now = e2e.server.services.now().getTime();
    const call = (daysAgo: number, urgency: 'urgent' | 'normal' | 'low' | null) => ({
      userId: customer.user.id,
      fromNumber: '+447700900123',
      toNumber: '+447700900999',
      status: 'voicemail' as const,
      createdAt: new Date(now - daysAgo * DAY),
      urgency,
    });
    await e2e.server.database.db
      .insert(calls)
      .values([call(1, 'urgent'), call(2, 'urgent'), call(3, 'normal'), call(4, null), call(90, 'low'), call(100, 'urgent')]);

    await page.goto('/dashboard/analytics');
    const list = page.getByRole('list', { name: 'Calls by urgency' });
    const row = (label: string) => list.getByRole('listitem').filter({ hasText: label });
    await until(async () => expect(await row('Urgent').textContent()).toBe('Urgent2 (50%)'));
    expect(await row('Normal').textContent()).toBe('Normal1 (25%)');
    expect(await row('Low priority').textContent()).toBe('Low priority0 (0%)');
    expect(await row('Not assessed').textContent()).toBe('Not assessed1 (25%)');

    await page.getByRole('combobox', { name: 'Urgency period' }).selectOption({ label: 'All time' });
    await until(async () => expect(await row('Urgent').textContent()).toBe('Urgent3 (50%)'));
    expect(await row('Low priority').textContent()).toBe('Low priority1 (17%)');
    // SPEC's cards are still there, unchanged.
    await page.getByText('Call Status Breakdown').waitFor();
  });
});
