// Notification Settings → Webhooks in the browser: a refused URL's message, saving a URL,
// rotating the secret, "Send Test Event" reaching a real HTTPS receiver signed with the secret
// the page shows, and the delivery log. The service gets the test-only receiver seam (loopback
// allowed, the fixture CA trusted) and a resolver for receiver.example; nothing else is stubbed.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownerWebhooks } from '../helpers/tables.js';
import { RECEIVER_CA, startReceiver, verifySignature, type Receiver } from '../webhooks/receiver.js';
import { attachScreenshot, customerPage, expectToast, until, useE2E } from './support/browser.js';

const e2e = useE2E({}, 90_000, {
  webhooks: {
    resolver: async (host) => {
      if (host !== 'receiver.example') throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
      return [{ address: '127.0.0.1', family: 4 }];
    },
    testReceiver: { allowLoopback: true, ca: RECEIVER_CA },
    pollMs: 50,
  },
  // No pipeline in the e2e server: the webhook worker is started here, stopped below.
  setup: (s) => s.webhooks.start(),
});

let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(async () => {
  await e2e.server.services.webhooks.stop();
  await receiver.close();
});

describe('Webhooks in Notification Settings', () => {
  it('saves a URL after showing why another was refused, rotates the secret and delivers a signed test event shown in the log', async ({ annotate }) => {
    const { page, customer } = await customerPage(e2e, { businessName: 'Hook Plumbing' });
    await page.goto('/dashboard/notifications?section=webhooks');
    const section = page.getByRole('region', { name: 'Webhooks' });
    await section.waitFor();
    const sendTest = section.getByRole('button', { name: 'Send Test Event' });
    expect(await sendTest.isDisabled()).toBe(true);
    await section.getByText('No deliveries yet.').waitFor();

    const url = section.getByRole('textbox', { name: 'Webhook URL' });
    await url.fill('https://10.0.0.8/hook');
    await section.getByRole('button', { name: 'Save Webhook' }).click();
    await section.getByRole('alert').filter({ hasText: 'Webhook URL must point to a public internet address: 10.0.0.8 is a private address' }).waitFor();
    expect((await e2e.server.database.db.select().from(ownerWebhooks).where(eq(ownerWebhooks.userId, customer.user.id)).limit(1))[0]?.url ?? null).toBeNull();

    const hookUrl = `https://receiver.example:${receiver.port}/catch/hook-plumbing`;
    await url.fill(hookUrl);
    await section.getByRole('button', { name: 'Save Webhook' }).click();
    await expectToast(page, 'Webhook saved');
    expect(await section.getByRole('alert').count()).toBe(0);

    const secretField = section.getByRole('textbox', { name: 'Signing Secret' });
    const first = await secretField.inputValue();
    expect(first).toMatch(/^whsec_[0-9a-f]{64}$/);
    await section.getByRole('button', { name: 'Rotate Secret' }).click();
    await expectToast(page, 'New signing secret made');
    await until(async () => expect(await secretField.inputValue()).not.toBe(first));
    const secret = await secretField.inputValue();
    expect(secret).toMatch(/^whsec_[0-9a-f]{64}$/);

    await until(async () => expect(await sendTest.isDisabled()).toBe(false));
    await sendTest.click();
    await expectToast(page, 'Test event queued');
    const log = section.getByRole('table', { name: 'Webhook deliveries' });
    const row = log.getByRole('row').filter({ hasText: 'Test event' });
    await until(async () => expect(await row.getByText('Delivered', { exact: true }).count()).toBe(1));
    expect(await row.getByRole('cell').allInnerTexts()).toEqual(['Test event', 'Delivered', '1', '200', '-', expect.stringMatching(/^\d\d\/\d\d\/\d{4} \d\d:\d\d$/)]);

    expect(receiver.requests).toHaveLength(1);
    const req = receiver.requests[0]!;
    expect(req.url).toBe('/catch/hook-plumbing');
    expect(JSON.parse(req.body)).toMatchObject({ event: 'webhook.test', test: true });
    expect(verifySignature(req.headers['x-callkeeper-signature'] as string, req.body, secret, Math.floor(Date.now() / 1000))).toBe(true);
    expect(verifySignature(req.headers['x-callkeeper-signature'] as string, req.body, first, Math.floor(Date.now() / 1000))).toBe(false);
    await attachScreenshot(page, annotate, 'notification-settings-webhooks');
  });
});
