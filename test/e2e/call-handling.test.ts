// Call handling in the browser (issue 16): the section under Notification Settings, its lists and
// Test transfer, and what call cards and Call Details show about tags and transfers.
import { describe, expect, it } from 'vitest';
import { loadCallHandling } from '../../core/call-handling/store.js';
import { calls } from '../helpers/tables.js';
import { attachScreenshot, customerPage, expectToast, until, useE2E } from './support/browser.js';

// An appliance with an outbound line: transfers are offered (transfers-unavailable.test.ts covers one without).
const e2e = useE2E({ OUTBOUND_ENDPOINT: 'PJSIP/{number}@uk-did' });

describe('Call handling settings', () => {
  it('saves the transfer number, hours, holidays, modes and withheld policy, and shows them after a reload', async ({ annotate }) => {
    const { page, customer } = await customerPage(e2e);
    await page.goto('/dashboard/notifications?section=call-handling');
    await page.getByRole('form', { name: 'Call handling' }).waitFor();

    await page.getByLabel('Put calls through to').fill('07400 123456');
    await page.getByLabel('Ring for (seconds)').fill('30');
    await page.getByRole('switch', { name: 'Use business hours' }).click();
    await page.getByRole('button', { name: 'Add hours on Saturday' }).click();
    await page.getByLabel('Saturday opens').fill('10:00');
    await page.getByLabel('Saturday closes').fill('13:00');
    await page.getByRole('button', { name: 'Remove Friday 09:00 to 17:30' }).click();
    await page.getByText('Closed all day').first().waitFor();
    await page.getByRole('checkbox', { name: 'Scotland' }).check();
    await page.getByRole('switch', { name: 'Open hours: ring me first' }).click();
    await page.getByLabel('Closed hours: answer with').selectOption('agent');
    await page.getByLabel('Closed-hours greeting (Optional)').fill('We are closed: leave a message.');
    await page.getByLabel('Withheld numbers').selectOption({ label: 'Take a message only' });
    await page.getByRole('button', { name: 'Save call handling' }).click();
    await expectToast(page, 'Call handling saved');

    const stored = await loadCallHandling(e2e.server.database.db, customer.user.id);
    expect(stored).toMatchObject({
      transferNumber: '+447400123456',
      transferTimeoutSeconds: 30,
      hoursEnabled: true,
      holidayNations: ['england-wales', 'scotland'],
      openRingFirst: true,
      closedMode: 'agent',
      closedRingFirst: false,
      closedGreeting: 'We are closed: leave a message.',
      withheld: 'message-only',
    });
    expect(stored.hours.sat).toEqual([{ open: '10:00', close: '13:00' }]);
    expect(stored.hours.fri).toEqual([]);
    expect(stored.hours.mon).toEqual([{ open: '09:00', close: '17:30' }]);

    await page.reload();
    await page.getByRole('form', { name: 'Call handling' }).waitFor();
    await attachScreenshot(page, annotate, 'notifications-call-handling-1280-light');
    expect(await page.getByLabel('Put calls through to').inputValue()).toBe('+447400123456');
    expect(await page.getByLabel('Saturday opens').inputValue()).toBe('10:00');
    expect(await page.getByRole('switch', { name: 'Use business hours' }).getAttribute('aria-checked')).toBe('true');
    expect(await page.getByRole('checkbox', { name: 'Scotland' }).isChecked()).toBe(true);
    expect(await page.getByLabel('Withheld numbers').inputValue()).toBe('message-only');
  });

  it("shows the server's message when the transfer number is the business line, and stores nothing", async () => {
    const { page, customer } = await customerPage(e2e, { businessPhone: '01632 960555' });
    await page.goto('/dashboard/notifications?section=call-handling');
    await page.getByLabel('Put calls through to').fill('01632 960555');
    await page.getByRole('button', { name: 'Save call handling' }).click();
    await expectToast(page, 'Error This is the number that forwards to us: put calls through to a different phone.');
    expect((await loadCallHandling(e2e.server.database.db, customer.user.id)).transferNumber).toBeNull();
  });

  it('marks the field a save was refused for, with its message, and scrolls to it', async () => {
    const { page } = await customerPage(e2e, {}, { width: 375, height: 700 });
    await page.goto('/dashboard/notifications?section=call-handling');
    // A phone shows the sections closed (call-handling-phone.test.ts): open the two this edits.
    for (const name of ['Call handling', 'How calls are answered']) await page.getByRole('button', { name, exact: true }).click();
    const ring = page.getByLabel('Ring for (seconds)');
    await ring.fill('99');
    await page.getByLabel('Closed-hours greeting (Optional)').fill('Closed.');
    // Saved from the bottom of the form, far below the field in error.
    await page.getByRole('button', { name: 'Save call handling' }).click();
    await until(async () => expect(await ring.getAttribute('aria-invalid')).toBe('true'));
    const form = page.getByRole('form', { name: 'Call handling' });
    await form.getByRole('alert').getByText('Ring time must be a whole number of seconds from 5 to 60.').waitFor();
    await until(async () => {
      const box = (await ring.boundingBox())!;
      expect(box.y).toBeGreaterThanOrEqual(0);
      expect(box.y + box.height).toBeLessThanOrEqual(700);
    });
    expect(await ring.evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true);
    // Fixing it clears the mark.
    await ring.fill('30');
    expect(await ring.getAttribute('aria-invalid')).toBeNull();
  });

  it('adds and removes numbers on the block and VIP lists at once, naming a bad entry', async () => {
    const { page, customer } = await customerPage(e2e);
    await page.goto('/dashboard/notifications?section=call-handling');
    const block = page.getByRole('region', { name: 'Block list' });
    const vip = page.getByRole('region', { name: 'VIP list' });

    await block.getByLabel('Add to block list').fill('07700 900666');
    await block.getByRole('button', { name: 'Add' }).click();
    await block.getByRole('list').getByText('+44 770 090 0666').waitFor();
    expect((await loadCallHandling(e2e.server.database.db, customer.user.id)).blockList).toEqual(['+447700900666']);

    await block.getByLabel('Add to block list').fill('Dave');
    await block.getByRole('button', { name: 'Add' }).click();
    await block.getByRole('alert').getByText('"Dave" is not a phone number.').waitFor();

    await vip.getByLabel('Add to VIP list').fill('+44 7700 900666');
    await vip.getByRole('button', { name: 'Add' }).click();
    await vip.getByText('+447700900666 is on both the block list and the VIP list: take it off one of them.').waitFor();

    await block.getByRole('button', { name: 'Remove +44 770 090 0666 from block list' }).click();
    await block.getByText('No numbers yet.').waitFor();
    await vip.getByLabel('Add to VIP list').fill('+44 7700 900666');
    await vip.getByRole('button', { name: 'Add' }).click();
    await vip.getByRole('list').getByText('+44 770 090 0666').waitFor();
    expect(await loadCallHandling(e2e.server.database.db, customer.user.id)).toMatchObject({ blockList: [], vipList: ['+447700900666'] });
  });

  it('Test transfer sends one POST to the test-transfer route and shows its message', async () => {
    const { page, customer } = await customerPage(e2e);
    await customer.client.request('PUT', '/api/user/call-handling', { transferNumber: '07400 123456' });
    const sent: { method: string; body: string | null; contentType: string | undefined }[] = [];
    await page.route('**/api/user/call-handling/test-transfer', async (route) => {
      const r = route.request();
      sent.push({ method: r.method(), body: r.postData(), contentType: r.headers()['content-type'] });
      await route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ message: 'Ringing +447400123456 now.' }) });
    });
    await page.goto('/dashboard/notifications?section=call-handling');
    const test = page.getByRole('button', { name: 'Test transfer' });
    await test.click();
    await expectToast(page, 'Test transfer Ringing +447400123456 now.');
    expect(sent).toEqual([{ method: 'POST', body: null, contentType: undefined }]);

    // An unsaved change must be saved before the test rings anything.
    await page.getByLabel('Put calls through to').fill('07400 654321');
    expect(await test.isDisabled()).toBe(true);
  });

  it("shows the route's refusal as an error toast", async () => {
    const { page, customer } = await customerPage(e2e);
    await customer.client.request('PUT', '/api/user/call-handling', { transferNumber: '07400 123456' });
    await page.route('**/api/user/call-handling/test-transfer', (route) =>
      route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ message: 'The phone system is not connected.' }) }),
    );
    await page.goto('/dashboard/notifications?section=call-handling');
    await page.getByRole('button', { name: 'Test transfer' }).click();
    await expectToast(page, 'Test transfer failed The phone system is not connected.');
  });

  it('keeps Test transfer off until a transfer number is saved', async () => {
    const { page } = await customerPage(e2e);
    await page.goto('/dashboard/notifications?section=call-handling');
    await page.getByText('Save a number to put calls through to first.').waitFor();
    expect(await page.getByRole('button', { name: 'Test transfer' }).isDisabled()).toBe(true);
  });
});

describe('tags on calls', () => {
  it('shows Transferred, VIP, Blocked and Urgent on cards and in Call Details, and Unblock takes the number off the list', async ({ annotate }) => {
    const { page, customer } = await customerPage(e2e, { businessName: 'Tags Ltd' });
    await customer.client.post('/api/user/call-handling/block', { number: '07700 900666' });
    const at = Date.parse('2026-07-04T12:30:00Z');
    await e2e.server.database.db
      .insert(calls)
      .values([
        {
          userId: customer.user.id,
          fromNumber: '+447700900777',
          toNumber: '+447700900999',
          status: 'answered',
          duration: 120,
          createdAt: new Date(at),
          callerTag: 'vip',
          transferOutcome: 'connected',
          transferTalkSeconds: 95,
          period: 'open',
          urgency: 'urgent',
          urgencyReason: 'boiler leaking',
        },
        { userId: customer.user.id, fromNumber: '+447700900666', toNumber: '+447700900999', status: 'missed', createdAt: new Date(at - 3600_000), callerTag: 'blocked', period: 'closed' },
        { userId: customer.user.id, fromNumber: '+447700900555', toNumber: '+447700900999', status: 'voicemail', duration: 20, createdAt: new Date(at - 7200_000), transferOutcome: 'no-answer', period: 'open' },
      ]);

    await page.goto('/dashboard');
    const cards = page.getByRole('list', { name: 'Calls' }).getByRole('listitem');
    await until(async () => expect(await cards.count()).toBe(3));
    const vipCard = cards.filter({ hasText: '+44 770 090 0777' });
    await vipCard.getByText('Transferred', { exact: true }).waitFor();
    await vipCard.getByText('VIP', { exact: true }).waitFor();
    await vipCard.getByText('Urgent', { exact: true }).waitFor();
    await vipCard.getByText('Transfer: Put through, talked 1:35').waitFor();
    const missedTransfer = cards.filter({ hasText: '+44 770 090 0555' });
    await missedTransfer.getByText('Transfer: No answer').waitFor();
    expect(await missedTransfer.getByText('Transferred', { exact: true }).count()).toBe(0);
    const blockedCard = cards.filter({ hasText: '+44 770 090 0666' });
    await blockedCard.getByText('Blocked', { exact: true }).waitFor();
    // A caller the owner turned away is not someone to ring back.
    expect(await blockedCard.getByText('To call back', { exact: true }).count()).toBe(0);
    await attachScreenshot(page, annotate, 'call-logs-call-handling-tags-1280-light');

    await vipCard.getByRole('button', { name: '+44 770 090 0777' }).click();
    const dialog = page.getByRole('dialog', { name: 'Call Details' });
    await dialog.getByText('Put through, talked 1:35').waitFor();
    await dialog.getByText('Open hours').waitFor();
    expect(await dialog.getByText('VIP', { exact: true }).count()).toBe(1);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });

    await blockedCard.getByRole('button', { name: 'Unblock +44 770 090 0666' }).click();
    await expectToast(page, '+447700900666 is off your block list.');
    await until(async () => expect(await blockedCard.getByRole('button', { name: /Unblock/ }).count()).toBe(0));
    expect((await loadCallHandling(e2e.server.database.db, customer.user.id)).blockList).toEqual([]);
    // The call keeps its tag: it was blocked when it came in.
    await blockedCard.getByText('Blocked', { exact: true }).waitFor();
  });

  it('shows Agents busy and Agent stalled on agent calls turned to voicemail for capacity, beside the other tags', async ({ annotate }) => {
    const { page, customer } = await customerPage(e2e, { businessName: 'Tags Ltd' });
    const at = Date.parse('2026-07-04T12:30:00Z');
    const agentCall = (fromNumber: string, minutesAgo: number, tags: { agentBusy?: boolean; agentStalled?: boolean; callerTag?: 'vip' }) => ({
      userId: customer.user.id,
      fromNumber,
      toNumber: '+447700900999',
      mode: 'agent' as const,
      status: 'voicemail' as const,
      duration: 40,
      createdAt: new Date(at - minutesAgo * 60_000),
      ...tags,
    });
    await e2e.server.database.db
      .insert(calls)
      .values([agentCall('+447700900701', 0, { agentStalled: true, callerTag: 'vip' }), agentCall('+447700900702', 10, { agentBusy: true }), agentCall('+447700900703', 20, {})]);

    await page.goto('/dashboard');
    const cards = page.getByRole('list', { name: 'Calls' }).getByRole('listitem');
    await until(async () => expect(await cards.count()).toBe(3));
    const stalled = cards.filter({ hasText: '+44 770 090 0701' });
    await stalled.getByText('Agent stalled', { exact: true }).waitFor();
    await stalled.getByText('VIP', { exact: true }).waitFor();
    expect(await stalled.getByText('Agents busy', { exact: true }).count()).toBe(0);
    const busy = cards.filter({ hasText: '+44 770 090 0702' });
    await busy.getByText('Agents busy', { exact: true }).waitFor();
    expect(await busy.getByText('Agent stalled', { exact: true }).count()).toBe(0);
    const plain = cards.filter({ hasText: '+44 770 090 0703' });
    await plain.getByText('Voicemail', { exact: true }).waitFor();
    expect(await plain.getByText(/Agents busy|Agent stalled/).count()).toBe(0);
    await attachScreenshot(page, annotate, 'call-logs-agent-capacity-tags-1280-light');
  });
});
