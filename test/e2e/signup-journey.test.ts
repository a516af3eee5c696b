// The whole way in: a business signs up, an admin approves it, the owner logs in.
import { describe, expect, it } from 'vitest';
import { ADMIN } from '../helpers/accounts.js';
import { ApiClient } from '../helpers/client.js';
import { logInThroughDialog, useE2E, expectToast } from './support/browser.js';

const e2e = useE2E();

describe('sign-up, approval and first login', () => {
  const email = `salon-${Date.now()}@example.co.uk`;
  const password = 'Gl0ssy!Hair';

  it('submits a sign-up request with the live strength meter and postcode formatting', async () => {
    const page = await e2e.page();
    await page.goto('/');
    await page.getByRole('heading', { name: /Never Miss Another/ }).waitFor();
    await page.getByRole('button', { name: 'Start Free Trial' }).click();
    const dialog = page.getByRole('dialog', { name: 'Start Your 7-Day Free Trial' });
    await dialog.getByText('£39/month after trial • Cancel anytime').waitFor();
    await dialog.getByText('Currently accepting UK businesses only').waitFor();

    await dialog.getByLabel('Business Name').fill('Bella Salon');
    await dialog.getByLabel('Business Email').fill(email);
    await dialog.getByText("You'll use this email to log in").waitFor();
    await dialog.getByLabel('Business Phone').fill('07700 900456');
    await dialog.getByText("We'll send call notifications to this number").waitFor();

    const passwordInput = dialog.getByLabel('Password', { exact: true });
    const meter = dialog.getByTestId('password-meter');
    const passed = () => meter.locator('li[data-passed="true"]').count();
    await passwordInput.fill('abc');
    await meter.getByText('Password strength: Weak').waitFor();
    expect(await passed()).toBe(1);
    await passwordInput.fill('Abcdefg1');
    await meter.getByText('Password strength: Medium').waitFor();
    expect(await passed()).toBe(4);
    await passwordInput.fill(password);
    await meter.getByText('Password strength: Strong').waitFor();
    expect(await passed()).toBe(5);

    await dialog.getByLabel('Industry').selectOption('beauty');
    await dialog.getByLabel('Weekly Customer Calls').selectOption('25-50');
    await dialog.getByLabel('Address Line 1').fill('12 Market Street');
    await dialog.getByLabel('City/Town').fill('Bristol');
    const postcode = dialog.getByLabel('Postcode');
    await postcode.pressSequentially('bs1 4dj');
    expect(await postcode.inputValue()).toBe('BS1 4DJ');
    expect(await dialog.getByLabel('Country').inputValue()).toBe('United Kingdom');
    expect(await dialog.getByLabel('Country').isDisabled()).toBe(true);

    await dialog.getByRole('button', { name: 'Submit Free Trial Request' }).click();
    const done = page.getByRole('dialog', { name: 'Request Submitted!' });
    await done.getByText('We review all requests within 24 hours. Check your email for approval.').waitFor();
    await done.getByRole('button', { name: 'Close', exact: true }).last().click();
    // Closing returns the dialog to an empty form.
    await page.getByRole('button', { name: 'Start Free Trial' }).click();
    expect(await page.getByRole('dialog').getByLabel('Business Name').inputValue()).toBe('');
  }, 60_000);

  it('refuses a weak password before sending anything', async () => {
    const page = await e2e.page();
    await page.goto('/');
    await page.getByRole('button', { name: 'Start Free Trial' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Password', { exact: true }).fill('short');
    // Everything else valid, so only the password rule can stop the request.
    await dialog.getByLabel('Business Name').fill('Weak Co');
    await dialog.getByLabel('Business Email').fill('weak@example.co.uk');
    await dialog.getByLabel('Business Phone').fill('07700 900111');
    await dialog.getByLabel('Industry').selectOption('other');
    await dialog.getByLabel('Weekly Customer Calls').selectOption('0-10');
    await dialog.getByLabel('Address Line 1').fill('1 Road');
    await dialog.getByLabel('City/Town').fill('York');
    await dialog.getByLabel('Postcode').fill('YO1 7HH');
    await dialog.getByRole('button', { name: 'Submit Free Trial Request' }).click();
    await dialog.getByText('Password must be at least 8 characters', { exact: true }).waitFor();
    const admin = new ApiClient(e2e.server.url);
    await admin.post('/api/auth/login', ADMIN);
    const approvals = await admin.get('/api/admin/approvals');
    expect(JSON.stringify(approvals.body ?? {})).not.toContain('weak@example.co.uk');
  }, 60_000);

  it('lets an admin approve the request', async () => {
    // signInAdmin seeds the first admin; the sign-in itself goes through the dialog.
    const { signInAdmin } = await import('../helpers/accounts.js');
    await signInAdmin(e2e.server);
    const page = await e2e.page();
    await logInThroughDialog(page, ADMIN.email, ADMIN.password);
    await page.getByRole('link', { name: 'Signup Approvals' }).click();
    await page.getByRole('heading', { name: 'Signup Approvals' }).waitFor();
    await page.getByText('1 Pending Approval', { exact: true }).waitFor();
    const row = page.getByRole('row').filter({ hasText: 'Bella Salon' });
    await row.getByText(email).waitFor();
    await row.getByText('BS1 4DJ', { exact: false }).waitFor();
    await row.getByRole('button', { name: /^Approve/ }).click();
    await expectToast(page, 'User Approved');
    await page.getByText('All caught up!').waitFor();
  }, 60_000);

  it('lets the owner log in and land on the call logs', async () => {
    const page = await e2e.page();
    await logInThroughDialog(page, email, password);
    await expectToast(page, "Welcome back! You've been logged in successfully.");
    await page.getByRole('heading', { name: 'Call Logs' }).waitFor();
    await page.getByText('Monitor all your business calls in one place').waitFor();
    expect(await page.getByTestId('sidebar-name').innerText()).toBe('Bella Salon');
    // Customers see no admin group.
    expect(await page.getByText('Admin', { exact: true }).count()).toBe(0);

    const api = new ApiClient(e2e.server.url);
    await api.post('/api/auth/login', { email, password });
    expect((await api.get('/api/call-logs')).status).toBe(200);
    await page.getByText('No calls yet').waitFor();
  }, 60_000);
});
