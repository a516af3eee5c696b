// An appliance without an outbound line (OUTBOUND_ENDPOINT unset) cannot put calls through: Call
// handling says so in one sentence and offers neither ring-first nor Test transfer.
import { describe, expect, it } from 'vitest';
import { phoneNumbers } from '../helpers/tables.js';
import { customerPage, useE2E } from './support/browser.js';
import { seriousViolations } from './support/axe.js';

const e2e = useE2E({ SUPPORT_NAME: 'Box Ops', SUPPORT_EMAIL: 'ops@example.co.uk' });

describe('transfers unavailable', () => {
  it('shows ring-first, VIP ring-through and Test transfer as unavailable, with one plain sentence', async () => {
    const { page, customer } = await customerPage(e2e);
    await customer.client.request('PUT', '/api/user/call-handling', { transferNumber: '07911 123456' });
    await page.goto('/dashboard/notifications?section=call-handling');
    const form = page.getByRole('form', { name: 'Call handling' });
    await form
      .getByRole('note')
      .getByText('Putting calls through to your phone is not set up yet, so ring me first, VIP ring-through and Test transfer are unavailable.')
      .waitFor();
    for (const name of ['Open hours: ring me first', 'Closed hours: ring me first']) expect(await form.getByRole('switch', { name }).isDisabled(), name).toBe(true);
    expect(await form.getByRole('button', { name: 'Test transfer' }).isDisabled()).toBe(true);
    await page.getByRole('region', { name: 'VIP list' }).getByText('You are texted at once when these callers ring.').waitFor();
    // The rest of the form still saves.
    expect(await form.getByLabel('Withheld numbers').isDisabled()).toBe(false);
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('says the forwarding check needs calls out, naming the operator with their contact (issue 57)', async () => {
    const { page, customer } = await customerPage(e2e, {}, { width: 375, height: 800 });
    await e2e.server.database.db.insert(phoneNumbers).values({ phoneNumber: '+447700901157', provider: 'static', providerSid: 'x', userId: customer.user.id, assignedAt: new Date() });
    await page.goto('/dashboard/phone-numbers');
    const said = page.getByText(/^Checking your forwarding is not set up on this appliance yet/);
    await said.waitFor({ timeout: 30_000 });
    expect(await said.innerText()).toBe('Checking your forwarding is not set up on this appliance yet: it needs calls out, which your operator, Box Ops (ops@example.co.uk), can set up.');
    expect(await said.getByRole('link', { name: 'ops@example.co.uk' }).getAttribute('href')).toBe('mailto:ops@example.co.uk');
    expect(await page.getByRole('button', { name: 'Check my forwarding' }).isDisabled()).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
  });
});
