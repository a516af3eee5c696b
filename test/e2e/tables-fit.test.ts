// Screens that fit: at 1280 px every table stays inside its card with its actions visible and long
// text cut with a tooltip; below the breakpoint rows become stacked cards; Peak Hours fits its 24
// bars on a phone; on phones of 320, 375 and 414 px every screen (call cards and Call Details
// among them) fits the viewport. Screenshots of each table screen at both widths in both themes.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { calls, unansweredQuestions } from '../helpers/tables.js';
import { ApiClient } from '../helpers/client.js';
import { activeCustomer, signupBody } from '../helpers/accounts.js';
import { adminPage, adoptSession, attachScreenshot, screenshotPath, useE2E, until } from './support/browser.js';
import { openAnsweringCards } from './support/answering-cards.js';
import { outsideViewport } from './support/viewport-fit.js';

const e2e = useE2E({ NUMBER_PROVIDER: 'static', STATIC_NUMBERS: '+447700900001,+447700900002' });

const LONG = 'The Extraordinarily Long-Named Hair, Beauty and Wellbeing Emporium of Greater Manchester';

/** Everything inside <main> that sticks out past the viewport or its table's card, described for the failure message. */
function overflow(page: Page): Promise<string[]> {
  return page.evaluate<string[]>(`(() => {
    const out = [];
    const vw = document.documentElement.clientWidth;
    if (document.documentElement.scrollWidth > vw) out.push('page scrolls sideways: ' + document.documentElement.scrollWidth + ' > ' + vw);
    for (const table of document.querySelectorAll('main table')) {
      const card = table.closest('section') ?? table.parentElement;
      const box = card.getBoundingClientRect();
      if (table.getBoundingClientRect().right > box.right + 0.5) out.push(table.getAttribute('aria-label') + ' is wider than its card');
      for (const el of table.querySelectorAll('tbody button, tbody select, tbody a, tbody td, tbody span')) {
        const r = el.getBoundingClientRect();
        if (r.width > 0 && (r.right > box.right + 0.5 || r.left < box.left - 0.5))
          out.push(table.getAttribute('aria-label') + ': ' + el.tagName + ' "' + (el.textContent || '').trim().slice(0, 30) + '" outside the card');
      }
    }
    return out;
  })()`);
}

const isStacked = (page: Page, label: string) => page.getByRole('table', { name: label }).evaluate((t) => t.classList.contains('table-stacked'));

/** Seeds what every table needs: long names, a pending sign-up, a number with an owner, questions and calls. */
async function seed() {
  const signup = signupBody({ businessName: LONG, businessEmail: `a-very-long-mailbox-name-for-testing.${Date.now()}@extraordinarily-long-domain.co.uk`, addressLine1: 'Unit 14, The Old Cotton Mill Industrial Estate, Long Millgate', city: 'Manchester' });
  const pending = await new ApiClient(e2e.server.url).post('/api/auth/signup', signup);
  expect(pending.status).toBe(201);
  const owner = await activeCustomer(e2e.server, { businessName: LONG, businessEmail: `owner.with.a.long.address.${Date.now()}@extraordinarily-long-domain.co.uk` });
  expect((await owner.client.post('/api/phone-numbers/purchase')).status).toBe(201);
  await e2e.server.database.db
    .insert(unansweredQuestions)
    .values([
      { userId: owner.user.id, question: 'Do you do balayage on very long hair, and how much would that cost for hair past the shoulders?', callerNumber: '+447700911111', aiResponse: "I'm sorry, I don't have that information. I can take a message for the team." },
      { userId: owner.user.id, question: 'Is there parking?', callerNumber: '+447700922222' },
    ]);
  const now = Date.now();
  await e2e.server.database.db
    .insert(calls)
    .values(
      Array.from({ length: 48 }, (_, i) => ({
        userId: owner.user.id,
        fromNumber: `+4477009${String(20000 + i)}`,
        toNumber: '+447700900001',
        status: (['answered', 'missed', 'voicemail'] as const)[i % 3]!,
        duration: 30 + i,
        createdAt: new Date(now - i * 3_600_000),
      })),
    );
  return owner;
}

describe('tables', () => {
  it('fit at 1280 px and stack below the breakpoint, with Peak Hours fitting 24 bars on a phone, in both themes', async ({ annotate }) => {
    const owner = await seed();
    const provider = (await owner.client.get('/api/meta')).body.provider as string;
    const adminScreens = [
      { path: '/dashboard/admin', table: 'All Users', name: 'admin' },
      { path: '/dashboard/approvals', table: 'Pending sign-up requests', name: 'approvals' },
      { path: `/dashboard/${provider}-numbers`, table: 'Phone numbers', name: 'numbers' },
    ];
    const ownerScreens = [
      { path: '/dashboard/questions', table: 'Unanswered questions', name: 'questions' },
      { path: '/dashboard/analytics', table: 'Recent Activity', name: 'analytics' },
    ];

    for (const dark of [false, true]) {
      for (const width of [1280, 375]) {
        const theme = dark ? 'dark' : 'light';
        const { page: admin } = await adminPage(e2e, { width, height: 800, dark });
        const ownerPage = await e2e.page({ width, height: 800, dark });
        await adoptSession(ownerPage, owner.client, e2e.server.url);
        for (const [page, screens] of [
          [admin, adminScreens],
          [ownerPage, ownerScreens],
        ] as const) {
          for (const s of screens) {
            await page.goto(s.path);
            const table = page.getByRole('table', { name: s.table });
            await table.waitFor();
            await until(async () => expect(await table.getByText(/\S/).count()).toBeGreaterThan(0));
            expect(await overflow(page), `${s.name} at ${width} ${theme}`).toEqual([]);
            expect(await isStacked(page, s.table), `${s.name} stacked at ${width}`).toBe(width < 768 || (width < 1280 && s.name !== 'analytics'));
            await attachScreenshot(page, annotate, `${s.name}-${width}-${theme}`);
          }
        }

        if (width === 1280) {
          // Approve and Reject whole and clickable; e-mails on one line with the full address in the tooltip.
          await admin.goto('/dashboard/approvals');
          const row = admin.getByRole('row').filter({ hasText: 'a-very-long-mailbox-name' });
          for (const name of [/^Approve/, /^Reject/]) {
            const box = (await row.getByRole('button', { name }).boundingBox())!;
            expect(box.x + box.width).toBeLessThanOrEqual(1280);
          }
          await admin.goto('/dashboard/admin');
          const email = admin.getByRole('row').filter({ hasText: 'owner.with.a.long.address' }).getByTitle(/owner\.with\.a\.long\.address\..*@extraordinarily-long-domain\.co\.uk/);
          // One line of text-sm (20 px line height), not broken mid-word.
          expect(await email.evaluate((el) => Math.round(el.getBoundingClientRect().height))).toBe(20);
        } else {
          // Peak Hours: 24 bars side by side inside the card on a phone.
          await ownerPage.goto('/dashboard/analytics');
          const chart = ownerPage.getByRole('img', { name: 'Calls per hour of the day' });
          await chart.waitFor();
          const bars = await chart.evaluate((el) => {
            const card = el.closest('section')!.getBoundingClientRect();
            return [...el.children].map((c) => {
              const r = c.getBoundingClientRect();
              return { left: r.left, right: r.right, inside: r.left >= card.left && r.right <= card.right };
            });
          });
          expect(bars).toHaveLength(24);
          expect(bars.every((b) => b.inside)).toBe(true);
          expect(bars.every((b, i) => i === 0 || b.left >= bars[i - 1]!.right)).toBe(true);
        }
      }
    }
  }, 240_000);
});

/** Calls with everything a card can show at once: the widest cards an owner sees. */
async function seedBusyCards(userId: number) {
  const now = Date.now();
  const base = { userId, toNumber: '+447700900001', notificationSent: true };
  const rows = await e2e.server.database.db
    .insert(calls)
    .values([
      {
        ...base,
        fromNumber: '+447700933301',
        status: 'voicemail' as const,
        duration: 754,
        createdAt: new Date(now - 60_000),
        recordingFile: 'none.wav',
        transcription: 'Hello, the boiler in the flat upstairs is leaking through the ceiling into the kitchen, please ring me back as soon as you can.',
        aiSummary: 'A tenant reports a boiler leaking through the kitchen ceiling and asks for an urgent call back today.',
        urgency: 'urgent' as const,
        urgencyReason: 'water leaking through a ceiling into the kitchen below',
        callerTag: 'vip' as const,
        transferOutcome: 'connected' as const,
        transferTalkSeconds: 95,
        period: 'closed' as const,
      },
      { ...base, fromNumber: '+447700933302', status: 'missed' as const, duration: 0, createdAt: new Date(now - 120_000), callerTag: 'blocked' as const, period: 'open' as const },
      { ...base, fromNumber: 'anonymous', status: 'voicemail' as const, duration: 31, createdAt: new Date(now - 180_000), aiSummary: 'A withheld caller asks about prices.' },
      { ...base, fromNumber: '+447700933304', status: 'voicemail' as const, duration: 45, createdAt: new Date(now - 240_000), calledBackAt: new Date(now - 30_000), urgency: 'normal' as const, transferOutcome: 'declined' as const },
    ])
    .returning({ id: calls.id });
  return rows[0]!.id;
}

describe('phones', () => {
  it('every screen, the call cards and Call Details fit the viewport at 320, 375 and 414 px', async () => {
    const owner = await activeCustomer(e2e.server, { businessName: LONG });
    expect((await owner.client.post('/api/phone-numbers/purchase')).status).toBe(201);
    const busyCall = await seedBusyCards(owner.user.id);
    const provider = (await owner.client.get('/api/meta')).body.provider as string;
    type Screen = { name: string; path: string; ready: (p: Page) => Promise<unknown> };
    const heading = (name: string) => (p: Page) => p.getByRole('heading', { name, exact: true }).waitFor();
    const ownerScreens: Screen[] = [
      { name: 'call logs', path: '/dashboard', ready: async (p) => until(async () => expect(await p.getByRole('list', { name: 'Calls' }).getByRole('listitem').count()).toBe(4)) },
      { name: 'call details', path: `/dashboard?call=${busyCall}`, ready: (p) => p.getByRole('dialog', { name: 'Call Details' }).getByText('Full Transcript').waitFor() },
      { name: 'analytics', path: '/dashboard/analytics', ready: (p) => p.getByRole('img', { name: 'Calls per hour of the day' }).waitFor() },
      { name: 'questions', path: '/dashboard/questions', ready: (p) => p.getByText('No Questions Yet', { exact: true }).waitFor() },
      // Each section of Notification Settings on its own.
      ...(
        [
          ['greeting', 'Voice Preference'],
          ['delivery', 'Delivery Settings'],
          ['call-handling', 'Business hours'],
          ['screening', 'Screened Callers'],
          ['webhooks', 'Send Test Event'],
        ] as const
      ).map(([section, text]): Screen => ({ name: `notifications ${section}`, path: `/dashboard/notifications?section=${section}`, ready: (p) => p.getByText(text).first().waitFor() })),
      // On a phone the Answering cards are closed to their headings (issue 57); every one is
      // opened, so the whole section is what must fit.
      { name: 'notifications answering', path: '/dashboard/notifications?section=answering', ready: (p) => openAnsweringCards(p) },
      { name: 'phone numbers', path: '/dashboard/phone-numbers', ready: (p) => p.getByText('Call Forwarding Setup').waitFor() },
      { name: 'settings', path: '/dashboard/settings', ready: heading('Settings') },
      { name: 'account', path: '/dashboard/account', ready: (p) => p.getByLabel('Current Password').waitFor() },
    ];
    const adminScreens: Screen[] = [
      { name: 'admin', path: '/dashboard/admin', ready: (p) => p.getByRole('table', { name: 'All Users' }).getByRole('row').nth(1).waitFor() },
      { name: 'approvals', path: '/dashboard/approvals', ready: heading('Signup Approvals') },
      { name: 'usage', path: '/dashboard/api-usage', ready: (p) => p.getByText('Total This Month').waitFor() },
      { name: 'numbers', path: `/dashboard/${provider}-numbers`, ready: (p) => p.getByRole('table', { name: 'Phone numbers' }).waitFor() },
      { name: 'screening', path: '/dashboard/screening', ready: (p) => p.getByRole('button', { name: 'Save Thresholds' }).waitFor() },
    ];
    const publicScreens: Screen[] = [
      { name: 'landing', path: '/', ready: (p) => p.getByRole('heading', { level: 1 }).waitFor() },
      { name: 'login', path: '/', ready: async (p) => { await p.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Log In' }).click(); await p.getByRole('dialog', { name: 'Welcome Back' }).waitFor(); } },
      { name: 'signup', path: '/', ready: async (p) => { await p.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Start Free Trial' }).click(); await p.getByRole('dialog', { name: 'Start Your 7-Day Free Trial' }).waitFor(); } },
      { name: 'reset password', path: '/reset-password/not-a-real-token', ready: heading('Reset Password') },
    ];

    const misfits: string[] = [];
    for (const width of [320, 375, 414]) {
      const { page: admin } = await adminPage(e2e, { width, height: 740 });
      const ownerPage = await e2e.page({ width, height: 740 });
      await adoptSession(ownerPage, owner.client, e2e.server.url);
      const visitor = await e2e.page({ width, height: 740 });
      for (const [page, screens] of [[ownerPage, ownerScreens], [admin, adminScreens], [visitor, publicScreens]] as const) {
        for (const s of screens) {
          await page.goto(s.path);
          await s.ready(page).catch(async (e: unknown) => {
            await page.screenshot({ path: screenshotPath(`phone-not-ready-${s.name}-${width}`), fullPage: true });
            throw new Error(`${s.name} at ${width} px never showed (screenshot phone-not-ready-…): ${String(e)}`);
          });
          for (const m of await outsideViewport(page)) misfits.push(`${s.name} at ${width} px: ${m}`);
        }
      }
    }
    expect(misfits).toEqual([]);
  }, 480_000);
});
