// Screens with data: a number bought and its forwarding codes copied, a question added to the
// knowledge base, and the admin's number management (savings filter, CSV export, release).
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { formatAdminPhone, formatPhone } from '../../contract/phone.js';
import { unansweredQuestions } from '../helpers/tables.js';
import { adminPage, customerPage, useE2E, expectToast, until } from './support/browser.js';

const e2e = useE2E({ NUMBER_PROVIDER: 'static', STATIC_NUMBERS: '+447700900001,+447700900002,+447700900003' });

describe('customer: numbers and questions', () => {
  it('gets a number, shows the forwarding guide and copies a code', async () => {
    const { page, customer } = await customerPage(e2e, { businessName: 'Forward Co' }, { clipboard: true });
    await page.goto('/dashboard/phone-numbers');
    await page.getByText('No phone numbers yet').waitFor();
    await page.getByRole('button', { name: 'Get Started' }).click();
    await expectToast(page, 'Number purchased Your new UK mobile number has been activated and configured.');
    const bought = ((await customer.client.get('/api/phone-numbers')).body as { numbers: { phoneNumber: string }[] }).numbers[0]!.phoneNumber;
    await page.getByText(`*61*${bought}#`).waitFor();
    await page.getByText(`*67*${bought}#`).waitFor();
    await page.getByText(`*21*${bought}#`).waitFor();
    await page.getByText('##002#').waitFor();
    await page.getByText('Active', { exact: true }).waitFor();

    await page.getByRole('button', { name: 'Copy Forward unanswered calls' }).click();
    await expectToast(page, 'Copied! Forward unanswered calls copied to clipboard');
    expect(await page.evaluate<string>('navigator.clipboard.readText()')).toBe(`*61*${bought}#`);
  });

  it('adds an answer to the knowledge base and resolves and deletes questions', async () => {
    const { page, customer } = await customerPage(e2e);
    await e2e.server.database.db
      .insert(unansweredQuestions)
      .values([
        { userId: customer.user.id, question: 'Do you cover Salford?', callerNumber: '+447700911111', aiResponse: "I'll take a message." },
        { userId: customer.user.id, question: 'Are you Gas Safe registered?', callerNumber: '+447700922222' },
        { userId: customer.user.id, question: 'Spam question', callerNumber: '+447700933333' },
      ]);
    await page.goto('/dashboard/questions');
    await page.getByRole('button', { name: 'Pending (3)' }).waitFor();

    const salford = page.getByRole('row').filter({ hasText: 'Do you cover Salford?' });
    await salford.getByRole('button', { name: 'Add to KB' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add to Knowledge Base' });
    await dialog.getByText('+44 770 091 1111', { exact: false }).waitFor();
    const add = dialog.getByRole('button', { name: 'Add to Knowledge Base' });
    await dialog.getByLabel('Your Answer').fill('   ');
    expect(await add.isDisabled()).toBe(true);
    await dialog.getByLabel('Your Answer').fill('  Yes, all of Greater Manchester.  ');
    await add.click();
    await expectToast(page, 'Added to knowledge base');
    await salford.getByText('In KB').waitFor();
    const me = (await customer.client.get('/api/auth/me')).body as { user: { knowledgeBase: string } };
    expect(me.user.knowledgeBase).toContain('Yes, all of Greater Manchester.');
    expect(me.user.knowledgeBase).not.toContain('  Yes');

    const gas = page.getByRole('row').filter({ hasText: 'Gas Safe' });
    await gas.getByRole('button', { name: 'Resolve' }).click();
    await expectToast(page, 'Question resolved');
    await gas.getByText('Resolved', { exact: true }).waitFor();

    // Deleting asks first (owner-first touches): accept the browser's confirmation.
    page.once('dialog', (d) => void d.accept());
    await page.getByRole('row').filter({ hasText: 'Spam question' }).getByRole('button', { name: 'Delete' }).click();
    await expectToast(page, 'Question deleted');
    await page.getByRole('button', { name: 'Resolved (2)' }).click();
    await until(async () => expect(await page.getByRole('row').count()).toBe(3));
  });
});

describe('admin: number management', () => {
  it('filters to unused numbers, exports the CSV and releases a number', async () => {
    const { page } = await adminPage(e2e);
    await customerPage(e2e, { businessName: 'Owner Ltd' }).then(async ({ customer }) => customer.client.post('/api/phone-numbers/purchase'));
    await page.goto('/dashboard/static-numbers');
    await page.getByText('Cost Optimization Opportunity').waitFor();
    await page.getByRole('button', { name: /Show (Unassigned|Expired) Numbers/ }).click();
    expect(await page.getByRole('combobox', { name: 'Filter numbers' }).inputValue()).toMatch(/unassigned|expired/);
    const rows = page.getByRole('table', { name: 'Phone numbers' }).getByRole('row');
    await until(async () => expect(await rows.count()).toBeGreaterThan(1));
    expect(await rows.filter({ hasText: 'Owner Ltd' }).count()).toBe(0);

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^static-numbers-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = fs.readFileSync((await download.path())!, 'utf8');
    expect(csv.replace(/^\uFEFF/, '').split('\r\n')[0]).toBe('Phone Number,Business Name,Email,Status,Monthly Cost,Purchase Date');
    await expectToast(page, /^Export Complete Exported \d+ numbers to CSV$/);

    const target = rows.nth(1);
    const number = (await target.getByRole('cell').first().innerText()).trim();
    await target.getByRole('button', { name: /^Release/ }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('The number cannot be recovered').waitFor();
    await dialog.getByRole('button', { name: 'Yes, Release Number' }).click();
    await expectToast(page, /^Number Released/);
    await until(async () => expect(await page.getByRole('cell', { name: number }).count()).toBe(0));
  });

  it('finds a number as the table shows it and in the other UK spellings', async () => {
    const { page, admin } = await adminPage(e2e);
    const list = (await admin.get('/api/admin/static-numbers')).body.numbers as { phoneNumber: string }[];
    expect(list.length).toBeGreaterThan(1);
    const e164 = list[0]!.phoneNumber;
    await page.goto('/dashboard/static-numbers');
    const rows = page.getByRole('table', { name: 'Phone numbers' }).getByRole('row');
    await until(async () => expect(await rows.count()).toBe(list.length + 1));
    const search = page.getByRole('searchbox', { name: 'Search numbers' });
    const national = `0${e164.slice(3, 7)} ${e164.slice(7)}`;
    for (const spelling of [formatAdminPhone(e164), formatPhone(e164), national, `0044 ${e164.slice(3)}`]) {
      await search.fill(spelling);
      await until(async () => expect(await rows.count()).toBe(2));
      await rows.nth(1).getByText(formatAdminPhone(e164)).waitFor();
    }
  });
});
