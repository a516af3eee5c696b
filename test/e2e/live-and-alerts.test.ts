// Issue 54's console at 375 and 1280 px, light and dark, with axe-core and the fit checks in each
// state: the Live page (its empty state; an agent call on the ARI simulator shown as it goes on,
// turn by turn over the page's stream, with the nav's count; End call's confirm, kept then
// confirmed, hanging the caller up) and Notification Settings → Alerts (two devices made through
// the API, listed, their choices and quiet hours changed and one removed, the server agreeing;
// the sentence a browser without push is shown, and no button to turn alerts on).
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { agentGreeting } from '../../dialogue/spoken/agent-lines.js';
import { SUPPORT_WORDS } from '../../console/src/lib/push.js';
import { darkSeriousViolations, seriousViolations } from './support/axe.js';
import { attachScreenshot, expectToast, until } from './support/browser.js';
import { startLiveAgentE2E, type LiveAgentE2E } from './support/live-agent.js';
import { outsideViewport } from './support/viewport-fit.js';

vi.setConfig({ testTimeout: 240_000 });

let e2e: LiveAgentE2E;
beforeAll(async () => {
  e2e = await startLiveAgentE2E();
}, 240_000);
afterAll(async () => e2e?.close());

/** Several engineers' runs share two cores: a render or a spoken turn is given 60 s. */
const slow = <T>(check: () => T | Promise<T>) => vi.waitFor(check, { timeout: 60_000, interval: 200 });

/** axe (light, then dark) and nothing outside the screen, on the page as it is now. */
async function clean(page: Page, what: string) {
  expect(await seriousViolations(page), `${what}: light`).toEqual([]);
  expect(await darkSeriousViolations(page), `${what}: dark`).toEqual([]);
  expect(await outsideViewport(page), what).toEqual([]);
}

const WIDTHS = [375, 1280] as const;

// The empty state's words (console/src/pages/live/LivePage.tsx).
const EMPTY_TITLE = 'No calls right now';
const EMPTY_TEXT = 'When someone calls, the call shows here while it is going on.';

const KB = 'Q: What are your opening hours?\nA: We are open 8am to 6pm, Monday to Friday.';
const HOURS = 'We are open 8am to 6pm, Monday to Friday.';
const QUESTION = 'What time do you open on Monday?';
const CALLER = '+447700900777';
const CALLER_SHOWN = '+44 770 090 0777';

/** The nav's count on the Live item ('' when there is none); read from the DOM, as the phone's drawer is closed. */
const navCount = (page: Page) => page.evaluate<string>(`document.querySelector('[data-testid="live-count"]')?.textContent ?? ''`);

/** The turns a page shows for the call, as "Caller: …" / "Assistant: …". */
async function shownTurns(page: Page): Promise<string[]> {
  const list = page.getByRole('list', { name: `What has been said on the call from ${CALLER_SHOWN}` });
  return (await list.getByRole('listitem').allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
}

async function openLive(page: Page) {
  await page.goto('/dashboard/live');
  await page.getByRole('heading', { name: 'Live', level: 1 }).waitFor({ timeout: 30_000 });
}

describe('the Live page', () => {
  it('says there is no call in progress, at 375 and 1280 px', async ({ annotate }) => {
    const owner = await e2e.agentOwner('Quiet Plumbing', '+447700900541');
    for (const width of WIDTHS) {
      const page = await e2e.ownerPage(owner.client, { width });
      await openLive(page);
      await page.getByRole('heading', { name: EMPTY_TITLE }).waitFor({ timeout: 30_000 });
      await page.getByText(EMPTY_TEXT, { exact: true }).waitFor();
      expect(await page.getByTestId('live-call').count()).toBe(0);
      expect(await navCount(page)).toBe('');
      await clean(page, `empty at ${width}`);
      await attachScreenshot(page, annotate, `live-empty-${width}`);
    }
  });

  it('follows an agent call turn by turn without a reload, with the count in the nav; End call asks first, Keep it leaves the call, Yes ends it', async ({ annotate }) => {
    const owner = await e2e.agentOwner('Acme Plumbing', '+447700900542', KB);
    e2e.ollama.replier = (req) => {
      const msgs = req.body.messages as Array<{ role: string; content: string }>;
      return /open/i.test(msgs.at(-1)?.content ?? '') ? JSON.stringify({ intent: 'question', answered: true, answer: HOURS }) : JSON.stringify({ intent: 'question', answered: false, answer: '' });
    };
    const pages = new Map<number, Page>();
    for (const width of WIDTHS) {
      const page = await e2e.ownerPage(owner.client, { width });
      await openLive(page);
      await page.getByRole('heading', { name: EMPTY_TITLE }).waitFor({ timeout: 30_000 });
      // Gone if the page reloads: every change below must reach it over its stream.
      await page.evaluate('window.__sameLoad = true');
      pages.set(width, page);
    }

    // The caller asks, then stays on the line saying nothing more (until End call).
    const placed = e2e.call(owner.did, CALLER, [{ after: { agentQuietMs: 1000 }, say: QUESTION, onSpeak: () => (e2e.whisper.defaultTranscript = QUESTION) }]);
    const expected = [`Assistant: ${agentGreeting('Acme Plumbing')}`, `Caller: ${QUESTION}`, `Assistant: ${HOURS}`];
    for (const width of WIDTHS) {
      const page = pages.get(width)!;
      // The call comes in while the page is open, then each turn as it is said.
      await slow(async () => expect(await page.getByTestId('live-call').count()).toBe(1));
      await slow(async () => expect(await shownTurns(page)).toEqual(expected));
    }
    for (const width of WIDTHS) {
      const page = pages.get(width)!;
      expect(await page.evaluate('window.__sameLoad')).toBe(true);
      const card = page.getByTestId('live-call');
      expect(await card.getByRole('heading', { name: CALLER_SHOWN }).count()).toBe(1);
      expect(await card.getByText('AI assistant', { exact: true }).count()).toBe(1);
      expect(await navCount(page)).toBe('1 in progress');
      if (width === 375) {
        // On a phone the count is in the drawer: open, it shows beside Live.
        await page.getByRole('button', { name: 'Toggle sidebar' }).click();
        const live = page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: /^Live/ });
        await until(async () => expect(await live.getByTestId('live-count').isVisible()).toBe(true));
        await clean(page, `drawer with the count at ${width}`);
        await page.keyboard.press('Escape');
        await until(async () => expect(await live.getByTestId('live-count').isVisible()).toBe(false));
      } else {
        expect(await page.getByTestId('live-count').isVisible()).toBe(true);
      }
      await clean(page, `a call in progress at ${width}`);
      await attachScreenshot(page, annotate, `live-call-${width}`);

      // End call asks first; Keep it leaves the call going.
      await card.getByRole('button', { name: 'End call' }).click();
      await card.getByText('End this call? The caller is hung up.').waitFor();
      await clean(page, `End call's confirm at ${width}`);
      await attachScreenshot(page, annotate, `live-end-confirm-${width}`);
      await card.getByRole('button', { name: 'Keep it' }).click();
      await card.getByRole('button', { name: 'End call' }).waitFor();
      expect(await card.getByText('End this call? The caller is hung up.').count()).toBe(0);
    }
    const listed = await owner.client.get('/api/live/calls');
    expect(listed.body.calls.map((c: { caller: string }) => c.caller)).toEqual([CALLER_SHOWN]);

    // Yes, on the phone: the box hangs the caller up, and both pages drop the call and the count.
    const phone = pages.get(375)!.getByTestId('live-call');
    await phone.getByRole('button', { name: 'End call' }).click();
    await phone.getByRole('button', { name: 'Yes, end call' }).click();
    const outcome = await placed.done;
    expect(outcome.hungUpBy).toBe('app');
    for (const width of WIDTHS) {
      const page = pages.get(width)!;
      await slow(async () => expect(await page.getByTestId('live-call').count()).toBe(0));
      await page.getByRole('heading', { name: EMPTY_TITLE }).waitFor();
      expect(await navCount(page)).toBe('');
      expect(await page.evaluate('window.__sameLoad')).toBe(true);
      await clean(page, `after End call at ${width}`);
    }
    expect((await owner.client.get('/api/live/calls')).body.calls).toEqual([]);
  });
});

interface Device {
  id: number;
  name: string;
  calls: string;
  bookings: boolean;
  callerTexts: boolean;
  quietStart: string | null;
  quietEnd: string | null;
}

describe.each(WIDTHS)('Notification Settings → Alerts at %i px', (width) => {
  it('lists two devices, changes one\'s choices and quiet hours, removes the other, and says this browser cannot take alerts', async ({ annotate }) => {
    const owner = await e2e.agentOwner(`Alerts ${width} Ltd`, `+4477009006${width === 375 ? '01' : '02'}`);
    const client = owner.client;
    for (const name of ['Sam’s Pixel', 'Kitchen tablet']) {
      const made = await client.post('/api/user/push/devices', { ...e2e.pushService.subscribe(), name });
      expect(made.status, made.text).toBe(201);
    }
    const devices = async () => ((await client.get('/api/user/push/devices')).body as { devices: Device[] }).devices;
    const device = async (name: string) => (await devices()).find((d) => d.name === name);

    const page = await e2e.ownerPage(client, { width });
    await page.goto('/dashboard/notifications?section=alerts');
    const panel = page.getByRole('tabpanel', { name: 'Alerts' });
    const list = panel.getByRole('list', { name: 'Devices with alerts' });
    await list.waitFor({ timeout: 30_000 });
    const row = (name: string) => list.getByRole('listitem').filter({ hasText: name });
    await until(async () => expect(await list.getByRole('listitem').count()).toBe(2));
    for (const name of ['Sam’s Pixel', 'Kitchen tablet']) expect(await row(name).count(), name).toBe(1);

    // This Chromium has no service worker (blocked, as in every e2e file but pwa's): it says so, and offers nothing it cannot do.
    await panel.getByRole('status').filter({ hasText: SUPPORT_WORDS['no-worker'] }).waitFor();
    expect(await panel.getByRole('status').filter({ hasText: SUPPORT_WORDS['no-worker'] }).innerText()).toBe(SUPPORT_WORDS['no-worker']);
    expect(await page.getByRole('button', { name: /Turn on alerts/ }).count()).toBe(0);
    await clean(page, `two devices at ${width}`);
    await attachScreenshot(page, annotate, `alerts-devices-${width}`);

    // Bookings off for the Pixel.
    expect((await device('Sam’s Pixel'))?.bookings).toBe(true);
    const bookings = page.getByRole('switch', { name: 'Bookings on Sam’s Pixel' });
    expect(await bookings.getAttribute('aria-checked')).toBe('true');
    await bookings.click();
    await expectToast(page, 'Device saved');
    await until(async () => expect((await device('Sam’s Pixel'))?.bookings).toBe(false));
    await until(async () => expect(await bookings.getAttribute('aria-checked')).toBe('false'));
    expect((await device('Kitchen tablet'))?.bookings).toBe(true);

    // Quiet from 22:00 until 07:00 on the Pixel.
    await row('Sam’s Pixel').getByLabel('Quiet from (UK time)').fill('22:00');
    await row('Sam’s Pixel').getByLabel('Quiet until').fill('07:00');
    await row('Sam’s Pixel').getByRole('button', { name: 'Save Quiet Hours' }).click();
    await until(async () => expect(await device('Sam’s Pixel')).toMatchObject({ quietStart: '22:00', quietEnd: '07:00' }));
    await row('Sam’s Pixel').getByText('Every call, caller texts · quiet 22:00–07:00').waitFor();
    await clean(page, `choices changed at ${width}`);

    // The tablet removed: one device left, here and on the server.
    await row('Kitchen tablet').getByRole('button', { name: 'Remove' }).click();
    await expectToast(page, 'Device removed: it gets no more alerts');
    await until(async () => expect(await list.getByRole('listitem').count()).toBe(1));
    expect(await row('Sam’s Pixel').count()).toBe(1);
    expect((await devices()).map((d) => ({ name: d.name, bookings: d.bookings, quietStart: d.quietStart, quietEnd: d.quietEnd }))).toEqual([
      { name: 'Sam’s Pixel', bookings: false, quietStart: '22:00', quietEnd: '07:00' },
    ]);
    await clean(page, `one device left at ${width}`);
    await attachScreenshot(page, annotate, `alerts-one-left-${width}`);
  });
});
