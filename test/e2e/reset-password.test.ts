// Forgot password → e-mail → /reset-password/{token} → new password; and the link without a token.
import { describe, expect, it, vi } from 'vitest';
import { activeCustomer } from '../helpers/accounts.js';
import { ApiClient } from '../helpers/client.js';
import { attachScreenshot, outboxMails, useE2E } from './support/browser.js';

const e2e = useE2E();

describe('reset password', () => {
  it('without a token: fields and button disabled, with the invalid-link error', async () => {
    const page = await e2e.page();
    await page.goto('/reset-password');
    await page.getByRole('heading', { name: 'Reset Password' }).waitFor();
    await page.getByText('Create a new password for your account').waitFor();
    await page.getByRole('alert').getByText('Invalid reset link. Please request a new password reset.').waitFor();
    expect(await page.getByLabel('New Password').isDisabled()).toBe(true);
    expect(await page.getByLabel('Confirm Password').isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Reset Password' }).isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Back to Login' }).click();
    await page.waitForURL((u) => u.pathname === '/');
  });

  it('from the forgot-password dialog to a new password, then back to / after 3 seconds with the login dialog filled in', async ({ annotate }) => {
    const customer = await activeCustomer(e2e.server);
    const page = await e2e.page();
    await page.goto('/');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Log In' }).click();
    await page.getByRole('button', { name: 'Forgot Password?' }).click();
    const dialog = page.getByRole('dialog', { name: 'Reset Password' });
    await dialog.getByText("Enter your email address and we'll send you instructions to reset your password.").waitFor();
    await dialog.getByLabel('Email').fill('not-an-email');
    await dialog.getByRole('button', { name: 'Send Reset Link' }).click();
    await dialog.getByText('Please enter a valid email address').waitFor();
    await dialog.getByLabel('Email').fill(customer.email);
    await dialog.getByRole('button', { name: 'Send Reset Link' }).click();
    await dialog.getByText("If that email exists in our system, we've sent password reset instructions. Check your inbox!").waitFor();

    const link = await vi.waitFor(() => {
      const mail = outboxMails(e2e.server).find((m) => m.includes('/reset-password/'));
      const token = mail && /\/reset-password\/([A-Za-z0-9_-]+)/.exec(mail)?.[1];
      if (!token) throw new Error('no reset mail yet');
      return `/reset-password/${token}`;
    });

    await page.goto(link);
    await page.getByLabel('New Password').fill('abc');
    await page.getByLabel('Confirm Password').fill('abc');
    await page.getByRole('button', { name: 'Reset Password' }).click();
    expect(await page.getByText('Password must be at least 6 characters').count()).toBe(2);
    await page.getByLabel('New Password').fill('fresh-pass-1');
    await page.getByLabel('Confirm Password').fill('fresh-pass-2');
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await page.getByText('Passwords do not match').waitFor();

    await page.getByLabel('Confirm Password').fill('fresh-pass-1');
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await page.getByText('Password updated successfully! You can now login. Redirecting to login page...').waitFor();
    await page.getByRole('button', { name: 'Go to Login' }).waitFor();
    // The success view stays up for its 3 seconds before the automatic redirect to /.
    expect(new URL(page.url()).pathname).toBe(link);
    await page.waitForURL((u) => u.pathname === '/', { timeout: 10_000 });
    // The login dialog is open with the account's e-mail filled in: only the password to type.
    const login = page.getByRole('dialog', { name: 'Welcome Back' });
    await login.waitFor();
    expect(await login.getByLabel('Email').inputValue()).toBe(customer.email);
    expect(await login.getByLabel('Password').inputValue()).toBe('');
    await attachScreenshot(page, annotate, 'login-after-reset-1280-light');
    // Used once: a reload shows the landing page without the dialog.
    await page.reload();
    await page.getByRole('heading', { name: /Never Miss Another/ }).waitFor();
    expect(await login.count()).toBe(0);

    const api = new ApiClient(e2e.server.url);
    expect((await api.post('/api/auth/login', { email: customer.email, password: 'fresh-pass-1' })).status).toBe(200);

    // The link is single-use: the server's message is shown.
    await page.goto(link);
    await page.getByLabel('New Password').fill('again-pass');
    await page.getByLabel('Confirm Password').fill('again-pass');
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await page.getByRole('alert').getByText(/invalid or has expired/).waitFor();
  });

  it('"Go to Login" opens the login dialog with the e-mail filled in, and the new password signs in', async () => {
    const customer = await activeCustomer(e2e.server);
    const api = new ApiClient(e2e.server.url);
    expect((await api.post('/api/auth/forgot-password', { email: customer.email })).status).toBe(200);
    const link = await vi.waitFor(() => {
      const mail = outboxMails(e2e.server).find((m) => m.includes(customer.email) && m.includes('/reset-password/'));
      const token = mail && /\/reset-password\/([A-Za-z0-9_-]+)/.exec(mail)?.[1];
      if (!token) throw new Error('no reset mail yet');
      return `/reset-password/${token}`;
    });
    const page = await e2e.page({ width: 375, height: 740 });
    await page.goto(link);
    await page.getByLabel('New Password').fill('brand-new-pass');
    await page.getByLabel('Confirm Password').fill('brand-new-pass');
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await page.getByRole('button', { name: 'Go to Login' }).click();
    const login = page.getByRole('dialog', { name: 'Welcome Back' });
    await login.waitFor();
    expect(await login.getByLabel('Email').inputValue()).toBe(customer.email);
    await login.getByLabel('Password').fill('brand-new-pass');
    await login.getByRole('button', { name: 'Log In' }).click();
    await page.waitForURL('**/dashboard');
  });
});
