// Issue 42 in the console: the owner chooses the languages the agent may answer callers in.
import { describe, expect, it } from 'vitest';
import { fixedLines } from '../../dialogue/language/fixed-lines.js';
import { seriousViolations } from './support/axe.js';
import { customerPage, useE2E, expectToast } from './support/browser.js';
import { openAnsweringCards } from './support/answering-cards.js';

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

  it('greets in Welsh then English when the owner picks it, offers only ticked languages, and unticking Welsh goes back to English only', async () => {
    const { page, customer } = await customerPage(e2e, {}, { width: 375, height: 800 });
    await customer.client.patch('/api/user/settings', { aiMode: 'agent', agentLanguages: ['pl', 'cy'] });
    await page.goto('/dashboard/notifications');
    await openAnsweringCards(page, ['Caller Languages']);
    const greeting = page.getByRole('combobox', { name: 'Greet callers in' });
    await greeting.waitFor();
    expect(await greeting.locator('option').allTextContents()).toEqual(['English only', 'English, then Polish', 'Polish, then English', 'English, then Welsh', 'Welsh, then English']);
    await greeting.selectOption({ label: 'Welsh, then English' });
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expectToast(page, 'Settings saved');
    expect((await customer.client.get('/api/auth/me')).body.user.greetingLanguages).toEqual(['cy', 'en']);

    await page.getByRole('group', { name: 'Caller Languages' }).getByRole('checkbox', { name: 'Welsh' }).uncheck();
    expect(await greeting.inputValue()).toBe('en');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expectToast(page, 'Settings saved');
    expect((await customer.client.get('/api/auth/me')).body.user).toMatchObject({ agentLanguages: ['en', 'pl'], greetingLanguages: ['en'] });
  });
});

describe('hearing the agent’s lines in each language (issue 42)', () => {
  it.each([375, 1280])('at %i px: the Urdu holding phrase in the male voice is made and can be played, its words shown in Urdu script, axe clean', async (width) => {
    const { page, customer } = await customerPage(e2e, {}, { width, height: 900 });
    await customer.client.patch('/api/user/settings', { aiMode: 'agent', agentLanguages: ['ur', 'cy'] });
    await page.goto('/dashboard/notifications');
    await openAnsweringCards(page, ['Caller Languages']);
    const language = page.getByRole('combobox', { name: 'Language', exact: true });
    await language.waitFor();
    expect(await language.locator('option').allTextContents()).toEqual(['English', 'Urdu', 'Welsh']);
    await language.selectOption({ label: 'Urdu' });
    await page.getByRole('combobox', { name: 'Line', exact: true }).selectOption({ label: 'Holding phrase' });
    await page.getByRole('combobox', { name: 'Voice', exact: true }).selectOption({ label: 'Male' });
    await page.getByRole('button', { name: 'Play line' }).click();
    const said = page.locator('span[lang="ur"]');
    await said.waitFor();
    expect(await said.textContent()).toBe(fixedLines('ur').lines.holding);
    const src = await page.getByLabel('Line', { exact: true }).and(page.locator('audio')).getAttribute('src');
    expect((await customer.client.get(src!)).status).toBe(200);
    expect(await seriousViolations(page)).toEqual([]);
  });
});
