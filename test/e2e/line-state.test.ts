// Issue 44: nothing used to say the line was not answering. Against the real Asterisk 20.17.0
// (test/pbx-real's harness) with the built console in Chromium: while Asterisk runs, the owner
// sees no banner and "Call my line" is offered, and the admin's Line Status says the phone system
// is up; once Asterisk is stopped, the owner's banner and the admin's status say so within a
// minute (the console reads the state every 15 s; the test waits on what the page shows).
import type { Browser, Page } from 'playwright-core';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { signInAdmin } from '../helpers/accounts.js';
import { realPbxAvailability, startRealPbx, type RealPbx } from '../pbx-real/harness.js';
import { ownerWithLine } from '../call-my-line/owner-line.js';
import { seriousViolations } from './support/axe.js';
import { CHROMIUM_ARGS, adoptSession } from './support/browser.js';
import { ensureConsoleBuilt } from './support/build-console.js';

const real = realPbxAvailability();
vi.setConfig({ testTimeout: 180_000 });

/** The console polls every 15 s: a minute is the promise, on a loaded machine. */
const WITHIN_A_MINUTE = { timeout: 60_000, interval: 250 };

describe.skipIf(!real.ok)('the line\'s state with a real Asterisk', () => {
  let h: RealPbx;
  let browser: Browser;
  beforeAll(async () => {
    h = await startRealPbx({ consoleDir: ensureConsoleBuilt() });
    browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS });
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    await h?.close();
  });

  async function pageAs(client: Parameters<typeof adoptSession>[1], width: number): Promise<Page> {
    const ctx = await browser.newContext({ viewport: { width, height: 800 }, baseURL: h.server.url });
    const page = await ctx.newPage();
    page.setDefaultTimeout(20_000);
    await adoptSession(page, client, h.server.url);
    return page;
  }

  it('Asterisk stopped: the owner\'s banner (375 px) and the admin\'s Line Status (1280 px) say so within a minute', async () => {
    const owner = await ownerWithLine(h.server, '+447700900851', { businessName: 'Line State Ltd' });
    const ownerPage = await pageAs(owner.client, 375);
    const adminPage = await pageAs(await signInAdmin(h.server), 1280);

    // Up: no banner; Call my line offered; the admin reads Up.
    await ownerPage.goto('/dashboard/phone-numbers');
    await ownerPage.getByRole('button', { name: 'Call my line' }).waitFor();
    await vi.waitFor(async () => expect(await ownerPage.getByRole('button', { name: 'Call my line' }).isEnabled()).toBe(true), WITHIN_A_MINUTE);
    expect(await ownerPage.getByTestId('line-banner').count()).toBe(0);
    await adminPage.goto('/dashboard/admin');
    // The row named exactly "Phone system" (the trunk's row mentions the phone system in its detail).
    const phoneSystem = adminPage.getByRole('list', { name: 'Line status' }).getByRole('listitem').filter({ has: adminPage.getByText('Phone system', { exact: true }) });
    await phoneSystem.getByText('Connected to Asterisk: calls are answered').waitFor();
    await phoneSystem.getByText('Up', { exact: true }).waitFor();
    // The harness's trunk is the IP-identified uk-did: set up, nothing to register.
    const trunk = adminPage.getByRole('list', { name: 'Line status' }).getByRole('listitem').filter({ hasText: 'Phone line (SIP trunk)' });
    await trunk.getByText("Trunk uk-did set up (no registration: the provider sends calls to this box's address)", { exact: true }).waitFor();
    expect(await seriousViolations(adminPage)).toEqual([]);

    await h.asterisk.stop();

    // Down: the owner's banner in plain words, Call my line not offered, the admin's Down with since when.
    const banner = ownerPage.getByTestId('line-banner');
    await vi.waitFor(async () => expect(await banner.innerText()).toMatch(/^Your line is not answering calls: the phone system has been down since \d+ \w+, \d\d:\d\d\./), WITHIN_A_MINUTE);
    expect(await banner.getAttribute('role')).toBe('alert');
    await ownerPage.getByText('The phone system is down right now, so a test call cannot ring your line. Try again once it is back.').waitFor();
    expect(await ownerPage.getByRole('button', { name: 'Call my line' }).isDisabled()).toBe(true);
    expect(await seriousViolations(ownerPage)).toEqual([]);

    await vi.waitFor(async () => expect(await phoneSystem.getByText('Down', { exact: true }).count()).toBe(1), WITHIN_A_MINUTE);
    await phoneSystem.getByText(/^Not connected to Asterisk: calls are not answered/).waitFor();
    await phoneSystem.getByText(/^since \d\d\/\d\d\/\d{4}/).waitFor();
    await trunk.getByText('Not known while the phone system is not connected', { exact: true }).waitFor();
    expect(await seriousViolations(adminPage)).toEqual([]);

    // The banner is on every owner page, Call Logs among them.
    await ownerPage.goto('/dashboard');
    await vi.waitFor(async () => expect(await ownerPage.getByTestId('line-banner').count()).toBe(1), WITHIN_A_MINUTE);
    expect(await seriousViolations(ownerPage)).toEqual([]);
  });
});
