// Issue 42 in the console: the owner chooses the languages the agent may answer callers in.
import { describe, expect, it } from 'vitest';
import { seriousViolations } from './support/axe.js';
import { customerPage, useE2E, expectToast } from './support/browser.js';

const e2e = useE2E();

describe('caller languages (agent mode)', () => {
  it('shows every language ticked by default with English fixed, saves a narrower list, and is axe clean', async () => {
    const { page, customer } = await customerPage(e2e);
    await page.goto('/dashboard/notifications');
    await page.getByText('Configure how you receive call summaries').waitFor();
    expect(await page.getByRole('group', { name: 'Caller Languages' }).count()).toBe(0);

    await page.getByRole('radio', { name: /AI Voice Agent/ }).check();
    const group = page.getByRole('group', { name: 'Caller Languages' });
    await group.waitFor();
    const english = group.getByRole('checkbox', { name: 'English' });
    expect(await english.isChecked()).toBe(true);
    expect(await english.isDisabled()).toBe(true);
    for (const name of ['Polish', 'Romanian', 'Panjabi', 'Urdu', 'Portuguese', 'Spanish', 'Welsh']) expect(await group.getByRole('checkbox', { name }).isChecked()).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);

    for (const name of ['Romanian', 'Panjabi', 'Urdu', 'Portuguese', 'Spanish']) await group.getByRole('checkbox', { name }).uncheck();
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expectToast(page, 'Settings saved');
    expect((await customer.client.get('/api/auth/me')).body.user.agentLanguages).toEqual(['en', 'pl', 'cy']);

    await page.goto('/dashboard/notifications');
    const again = page.getByRole('group', { name: 'Caller Languages' });
    await again.waitFor();
    expect(await again.getByRole('checkbox', { name: 'Welsh' }).isChecked()).toBe(true);
    expect(await again.getByRole('checkbox', { name: 'Spanish' }).isChecked()).toBe(false);
  });
});
