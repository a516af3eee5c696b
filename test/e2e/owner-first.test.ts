// Owner-first touches: the first-run checklist ticking itself from real state, call cards on a
// phone (Call back, day dividers), the inline player in Call Details, the unsaved-changes
// warning, "Play greeting" in the chosen voice, friendly voice names, a second "Add Number",
// confirming a question's deletion, the pending count on Signup Approvals, and a knowledge-base
// placeholder in the owner's trade.
import { describe, expect, it } from 'vitest';
import type { Dialog } from 'playwright-core';
import { calls, unansweredQuestions } from '../helpers/tables.js';
import { ApiClient } from '../helpers/client.js';
import { signupBody } from '../helpers/accounts.js';
import { latestCode } from '../helpers/destinations.js';
import { formatPhone } from '../../contract/phone-display.js';
import { darkSeriousViolations, seriousViolations } from './support/axe.js';
import { adminPage, attachScreenshot, customerPage, expectToast, useE2E, until } from './support/browser.js';

const e2e = useE2E({ NUMBER_PROVIDER: 'static', STATIC_NUMBERS: '+447700900001,+447700900002,+447700900003,+447700900004' });
const HOUR = 3_600_000;

describe('first-run checklist', () => {
  it('ticks each step as the owner gets a number, chooses the agent and receives a first call, then goes away', async ({ annotate }) => {
    const { page, customer } = await customerPage(e2e, { businessName: 'Fresh Start Plumbing' });
    await page.goto('/dashboard');
    const steps = page.getByRole('list', { name: 'Set-up steps' });
    await steps.waitFor();
    // The sign-up phone is confirmed already (customerPage enters the code its approval texted).
    await page.getByText('1 of 5 done').waitFor();
    await steps.getByText('Confirm your number for call texts (done)').waitFor();
    expect(await steps.getByText('(to do)').count()).toBe(4);
    await page.getByText('No calls yet').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await attachScreenshot(page, annotate, 'checklist-new-owner-1280-light');

    // 1. The number, bought through the link the checklist gives.
    await steps.getByRole('link', { name: 'Get your UK number' }).click();
    await page.getByRole('button', { name: 'Get Started' }).click();
    await expectToast(page, 'Number purchased');
    const number = ((await customer.client.get('/api/phone-numbers')).body as { numbers: { phoneNumber: string }[] }).numbers[0]!.phoneNumber;
    await page.getByRole('link', { name: 'Call Logs' }).click();
    await page.getByText('2 of 5 done').waitFor();
    await steps.getByText('Get your number (done)').waitFor();
    // The code for a BT-style landline until the owner picks another kind of line (national format: a landline keypad has no +).
    await steps.getByText(`*61*0${number.slice(3)}#`).waitFor();

    // 4. Agent mode, saved in Notification Settings.
    await steps.getByRole('link', { name: 'Choose in Notification Settings' }).click();
    await page.getByRole('radio', { name: /AI Voice Agent/ }).check();
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expectToast(page, 'Settings saved');
    await page.getByRole('link', { name: 'Call Logs' }).click();
    await page.getByText('3 of 5 done').waitFor();
    await steps.getByText('Choose voicemail or AI agent (done)').waitFor();

    // 2 and 3. The first call reaches the number: forwarding works, the test call is in.
    await e2e.server.database.db
      .insert(calls)
      .values({ userId: customer.user.id, fromNumber: '+447700955555', toNumber: number, status: 'missed', duration: 0, createdAt: new Date() });
    await page.reload();
    await page.getByRole('list', { name: 'Calls' }).getByRole('listitem').first().waitFor();
    expect(await steps.count()).toBe(0);
  });

  it('names confirming the sign-up phone: the code its approval texted, entered in Notification Settings, ticks it', async () => {
    const { page } = await customerPage(e2e, { businessName: 'Unconfirmed Ltd', businessPhone: '07700 900612' }, undefined, { confirmPhone: false });
    await page.goto('/dashboard');
    const steps = page.getByRole('list', { name: 'Set-up steps' });
    await page.getByText('0 of 5 done').waitFor();
    await steps.getByText('Confirm your number for call texts (to do)').waitFor();
    await steps.getByText(`Nothing is texted to you until you enter the code we sent to ${formatPhone('+447700900612')}.`).waitFor();
    await steps.getByRole('link', { name: 'Enter it in Notification Settings' }).click();

    // The Delivery section: no number in use, the sign-up phone waiting with its code box.
    const status = page.getByTestId('destination-status');
    await status.getByText(`Waiting for the code we sent to ${formatPhone('+447700900612')}: nothing is texted to you until you enter it.`).waitFor();
    await status.getByRole('textbox', { name: 'Code sent to +447700900612' }).fill(latestCode(e2e.server, 'sms', '+447700900612'));
    await status.getByRole('button', { name: 'Confirm' }).click();
    await expectToast(page, 'Notification number confirmed: call notifications now go to +447700900612.');

    await page.getByRole('link', { name: 'Call Logs' }).click();
    await page.getByText('1 of 5 done').waitFor();
    await steps.getByText('Confirm your number for call texts (done)').waitFor();
  });

  it('asks an owner who signed up with a landline for the mobile they want call texts on (issue 57 item 6)', async () => {
    const { page } = await customerPage(e2e, { businessName: 'Landline Ltd', businessPhone: '020 7946 0612' }, undefined, { confirmPhone: false });
    await page.goto('/dashboard');
    const steps = page.getByRole('list', { name: 'Set-up steps' });
    await steps.getByText('Add a mobile for call texts (to do)').waitFor();
    const said = 'is a landline, and landlines cannot receive texts.';
    await steps.getByText(said, { exact: false }).waitFor();
    expect(await darkSeriousViolations(page)).toEqual([]);
    await steps.getByRole('link', { name: 'Open Notification Settings' }).click();
    await page.getByTestId('landline-notice').getByText(said, { exact: false }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    expect(await darkSeriousViolations(page)).toEqual([]);
  });

  it('can be hidden by the owner', async () => {
    const { page } = await customerPage(e2e, { businessName: 'Hide Me Ltd' });
    await page.goto('/dashboard');
    await page.getByRole('list', { name: 'Set-up steps' }).waitFor();
    await page.getByRole('button', { name: 'Hide' }).click();
    await page.reload();
    await page.getByText('No calls yet').waitFor();
    expect(await page.getByRole('list', { name: 'Set-up steps' }).count()).toBe(0);
  });
});

describe('call cards on a phone', () => {
  it('offers Call back on missed and voicemail calls, groups calls under Today, Yesterday and dates, and plays the recording inline', async ({ annotate }) => {
    const { page, customer } = await customerPage(e2e, { businessName: 'Phone Cards Ltd' }, { width: 375, height: 740 });
    const now = Date.now();
    const londonNoon = new Date(`${new Date(now).toISOString().slice(0, 10)}T12:00:00Z`).getTime();
    await e2e.server.database.db
      .insert(calls)
      .values([
        { userId: customer.user.id, fromNumber: '+447700900111', toNumber: '+447700900999', status: 'missed', duration: 0, createdAt: new Date(now - 60_000) },
        { userId: customer.user.id, fromNumber: '+447700900222', toNumber: '+447700900999', status: 'voicemail', duration: 42, createdAt: new Date(londonNoon - 24 * HOUR), recordingFile: 'call-x.wav', aiSummary: 'Wants a quote.' },
        { userId: customer.user.id, fromNumber: '+447700900333', toNumber: '+447700900999', status: 'answered', duration: 95, createdAt: new Date(Date.UTC(2026, 0, 15, 12)) },
      ]);
    await page.goto('/dashboard');
    const list = page.getByRole('list', { name: 'Calls' });
    await until(async () => expect(await list.getByRole('listitem').count()).toBe(3));
    expect(await list.getByRole('heading', { level: 3 }).allInnerTexts()).toEqual(['TODAY', 'YESTERDAY', '15/01/2026']);

    const missed = list.getByRole('listitem').filter({ hasText: '+44 770 090 0111' });
    expect(await missed.getByRole('link', { name: 'Call back +44 770 090 0111' }).getAttribute('href')).toBe('tel:+447700900111');
    const voicemail = list.getByRole('listitem').filter({ hasText: '+44 770 090 0222' });
    expect(await voicemail.getByRole('link', { name: /^Call back/ }).getAttribute('href')).toBe('tel:+447700900222');
    const answered = list.getByRole('listitem').filter({ hasText: '+44 770 090 0333' });
    expect(await answered.getByRole('link', { name: /^Call back/ }).count()).toBe(0);
    const box = (await missed.getByRole('link', { name: /^Call back/ }).boundingBox())!;
    expect(box.height).toBeGreaterThanOrEqual(44);
    await attachScreenshot(page, annotate, 'call-cards-375-light');

    await voicemail.getByRole('button', { name: '+44 770 090 0222' }).click();
    const dialog = page.getByRole('dialog', { name: 'Call Details' });
    await dialog.getByRole('button', { name: 'Play Recording' }).waitFor();
    const logs = (await customer.client.get('/api/call-logs')).body as { callLogs: { fromNumber: string; recordingUrl: string | null }[] };
    const url = logs.callLogs.find((c) => c.fromNumber === '+447700900222')!.recordingUrl!;
    expect(await dialog.locator('audio[aria-label="Recording"]').getAttribute('src')).toBe(url);
    await attachScreenshot(page, annotate, 'call-details-375-light', { fullPage: false });

    // On a wide screen the card keeps its desk layout: no dial button.
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.keyboard.press('Escape');
    await until(async () => expect(await missed.getByRole('link', { name: /^Call back/ }).isVisible()).toBe(false));
  });
});

describe('notification settings', () => {
  it('warns before leaving with unsaved changes, and not once they are saved', async () => {
    const { page } = await customerPage(e2e, { businessName: 'Careful Co' });
    await page.goto('/dashboard/notifications?section=greeting');
    await page.getByLabel('Business Name (Optional)').fill('Careful Company');
    const asked: string[] = [];
    const answer = (accept: boolean) => (d: Dialog) => {
      asked.push(d.message());
      void (accept ? d.accept() : d.dismiss());
    };
    page.once('dialog', answer(false));
    await page.getByRole('link', { name: 'Analytics' }).click();
    await until(() => expect(asked).toHaveLength(1));
    expect(asked[0]).toBe('You have unsaved changes. Leave this page without saving them?');
    expect(new URL(page.url()).pathname).toBe('/dashboard/notifications');
    expect(await page.getByLabel('Business Name (Optional)').inputValue()).toBe('Careful Company');

    page.once('dialog', answer(true));
    await page.getByRole('link', { name: 'Analytics' }).click();
    await page.getByText('Track call patterns and performance metrics').waitFor();
    expect(asked).toHaveLength(2);

    await page.goto('/dashboard/notifications?section=greeting');
    await page.getByLabel('Business Name (Optional)').fill('Careful Company');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expectToast(page, 'Settings saved');
    await page.getByRole('link', { name: 'Analytics' }).click();
    await page.getByText('Track call patterns and performance metrics').waitFor();
    expect(asked).toHaveLength(2);
  });

  it('plays the unsaved greeting in the chosen voice and names voices by their speaker', async ({ annotate }) => {
    const { page } = await customerPage(e2e, { businessName: 'Old Name Ltd', industry: 'beauty' });
    await page.goto('/dashboard/notifications?section=greeting');
    await page.getByText('Jenny (en_GB-jenny_dioco-medium)').waitFor();
    await page.getByText('Alan (en_GB-alan-medium)').waitFor();

    await page.getByLabel('Business Name (Optional)').fill('Sunny Salon');
    await page.getByRole('radio', { name: /Male Voice \(UK\)/ }).check();
    const request = page.waitForRequest((r) => r.url().endsWith('/api/greeting/preview'));
    await page.getByRole('button', { name: 'Play greeting' }).click();
    expect((await request).postDataJSON()).toMatchObject({ businessName: 'Sunny Salon', voice: 'male' });
    await page
      .getByText("Callers hear: “You've reached Sunny Salon. For quality purposes, this call is being recorded. Please leave your name and message after the tone.”")
      // Synthesis on a busy two-core box can take a while the first time.
      .waitFor({ timeout: 30_000 });
    const audio = page.locator('audio[aria-label="Greeting"]');
    const src = await audio.getAttribute('src');
    expect(src).toMatch(/^\/api\/agent\/preview\/audio\/[0-9a-f]{64}$/);
    const wav = await page.request.get(src!);
    expect(wav.status()).toBe(200);
    expect(wav.headers()['content-type']).toBe('audio/wav');
    expect((await wav.body()).subarray(0, 4).toString()).toBe('RIFF');
    // The browser decoded it as sound.
    await until(async () => expect(await audio.evaluate((el) => (el as unknown as { duration: number }).duration)).toBeGreaterThan(0.5));

    // The knowledge base's example is the owner's trade (under Answering; the greeting left unsaved).
    page.once('dialog', (d) => void d.accept());
    await page.getByRole('tab', { name: 'Answering' }).click();
    await page.getByRole('radio', { name: /AI Voice Agent/ }).check();
    expect(await page.getByRole('textbox', { name: 'Knowledge Base' }).getAttribute('placeholder')).toMatch(/patch test/);
    await attachScreenshot(page, annotate, 'notifications-greeting-1280-light');
  });
});

describe('numbers, questions and approvals', () => {
  it('says an owner already has their number instead of claiming a new purchase', async () => {
    const { page, customer } = await customerPage(e2e, { businessName: 'One Number Ltd' });
    await page.goto('/dashboard/phone-numbers');
    await page.getByRole('button', { name: 'Get Started' }).click();
    await expectToast(page, 'Number purchased');
    const before = ((await customer.client.get('/api/phone-numbers')).body as { numbers: { phoneNumber: string }[] }).numbers;
    await page.getByRole('button', { name: 'Add Number' }).click();
    await expectToast(page, /You already have a number \+44 \d{3} \d{3} \d{4} is your number; each account has one\./);
    const after = ((await customer.client.get('/api/phone-numbers')).body as { numbers: unknown[] }).numbers;
    expect(after).toEqual(before);
  });

  it('asks before deleting a question', async () => {
    const { page, customer } = await customerPage(e2e);
    await e2e.server.database.db.insert(unansweredQuestions).values({ userId: customer.user.id, question: 'Do you sell gift vouchers?', callerNumber: '+447700944444' });
    await page.goto('/dashboard/questions');
    const row = page.getByRole('row').filter({ hasText: 'Do you sell gift vouchers?' });
    const messages: string[] = [];
    page.once('dialog', (d) => {
      messages.push(d.message());
      void d.dismiss();
    });
    await row.getByRole('button', { name: 'Delete' }).click();
    await until(() => expect(messages).toEqual(['Delete the question "Do you sell gift vouchers?"? This cannot be undone.']));
    expect(await row.count()).toBe(1);
    page.once('dialog', (d) => void d.accept());
    await row.getByRole('button', { name: 'Delete' }).click();
    await expectToast(page, 'Question deleted');
    await until(async () => expect(await row.count()).toBe(0));
  });

  it('shows the pending sign-up count on the Signup Approvals item', async () => {
    for (const name of ['Pending One', 'Pending Two']) {
      expect((await new ApiClient(e2e.server.url).post('/api/auth/signup', signupBody({ businessName: name }))).status).toBe(201);
    }
    const { page, admin } = await adminPage(e2e);
    const pending = ((await admin.get('/api/admin/approvals')).body as { users: unknown[] }).users.length;
    expect(pending).toBeGreaterThanOrEqual(2);
    await page.goto('/dashboard/admin');
    const item = page.getByRole('link', { name: /^Signup Approvals/ });
    await until(async () => expect(await item.getByTestId('pending-count').textContent()).toBe(`${pending} pending`));
    expect(await item.getAttribute('aria-current')).toBeNull();
    await item.click();
    await page.getByRole('row').filter({ hasText: 'Pending One' }).getByRole('button', { name: /^Approve/ }).click();
    await expectToast(page, 'User Approved');
    await until(async () => expect(await item.getByTestId('pending-count').textContent()).toBe(`${pending - 1} pending`));
  });
});
