// Every data screen in its first-visit state. Screens whose API another capability serves are
// checked against what the server answers today: the empty state when the route exists, the
// error state (with Retry) while it does not. Call logs are also checked with real rows.
import { describe, expect, it } from 'vitest';
import { calls } from '../helpers/tables.js';
import { adminPage, customerPage, useE2E, until } from './support/browser.js';

const e2e = useE2E();

describe('customer screens on a new account', () => {
  it('analytics, phone numbers and AI questions show their empty states on a new account', async () => {
    const { page, customer } = await customerPage(e2e);
    const screens = [
      { path: '/dashboard/analytics', api: '/api/analytics', heading: 'Analytics', empty: 'No Data Yet' },
      { path: '/dashboard/phone-numbers', api: '/api/phone-numbers', heading: 'Phone Numbers', empty: 'No phone numbers yet' },
      { path: '/dashboard/questions', api: '/api/unanswered-questions', heading: 'AI Questions', empty: 'No Questions Yet' },
    ];
    for (const s of screens) {
      await page.goto(s.path);
      await page.getByRole('heading', { name: s.heading, exact: true }).waitFor();
      expect((await customer.client.get(s.api)).status).toBe(200);
      await page.getByText(s.empty, { exact: true }).waitFor();
    }
    await page.goto('/dashboard/phone-numbers');
    await page.getByRole('button', { name: 'Get Started' }).waitFor();
    await page.goto('/dashboard/questions');
    for (const f of ['All (0)', 'Pending (0)', 'Resolved (0)']) await page.getByRole('button', { name: f }).waitFor();
  });

  it('analytics, phone numbers and AI questions show their error state with Retry when the API fails', async () => {
    const { page } = await customerPage(e2e);
    const screens = [
      { path: '/dashboard/analytics', api: '/api/analytics', heading: 'Analytics', error: 'Unable to load analytics data' },
      { path: '/dashboard/phone-numbers', api: '/api/phone-numbers', heading: 'Phone Numbers', error: 'Could not load phone numbers' },
      { path: '/dashboard/questions', api: '/api/unanswered-questions', heading: 'AI Questions', error: 'Could not load questions' },
    ];
    for (const s of screens) {
      await page.route(
        (url) => url.pathname === s.api,
        (route) => route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ message: 'The database is busy. Please try again.' }) }),
      );
      await page.goto(s.path);
      await page.getByRole('heading', { name: s.heading, exact: true }).waitFor();
      await page.getByText(s.error).waitFor();
      await page.getByRole('button', { name: 'Retry' }).waitFor();
    }
  });

  it('call logs: cards, search, status filter and the details dialog', async () => {
    const { page, customer } = await customerPage(e2e, { businessName: 'Card Co' });
    const at = new Date('2026-07-04T12:30:00Z');
    await e2e.server.database.db
      .insert(calls)
      .values([
        {
          userId: customer.user.id,
          fromNumber: '+447700900123',
          toNumber: '+447700900999',
          status: 'voicemail',
          duration: 65,
          createdAt: at,
          aiSummary: 'Caller reports a LEAKING boiler and asks for a visit tomorrow.',
          transcription: 'Hi, my boiler is leaking, can someone come tomorrow?',
          notificationSent: true,
          urgency: 'urgent',
          urgencyReason: 'boiler leaking',
        },
        { userId: customer.user.id, fromNumber: '+447700900456', toNumber: '+447700900999', status: 'missed', duration: 0, createdAt: new Date(at.getTime() - 3600_000) },
        { userId: customer.user.id, fromNumber: '+447700900789', toNumber: '+447700900999', status: 'answered', duration: 125, createdAt: new Date(at.getTime() - 7200_000) },
      ]);

    await page.goto('/dashboard');
    const cards = page.getByRole('list', { name: 'Calls' }).getByRole('listitem');
    await until(async () => expect(await cards.count()).toBe(3));
    // Stat cards: 3 calls, 1 answered, 1 missed, 33% response rate.
    await page.getByText('33%', { exact: true }).waitFor();

    const first = cards.filter({ hasText: '+44 770 090 0123' });
    await first.getByText('04/07/2026 at 13:30').waitFor();
    await first.getByText('1:05').waitFor();
    await first.getByRole('button', { name: 'View Transcript' }).waitFor();
    expect(await first.getByRole('button', { name: 'Play Recording' }).count()).toBe(0);
    // Urgency from the summary: a badge and the reason on the urgent card, nothing on the others.
    await first.getByText('Urgent', { exact: true }).waitFor();
    await first.getByText('Urgent: boiler leaking').waitFor();
    expect(await cards.filter({ hasText: '+44 770 090 0456' }).getByText('Urgent', { exact: true }).count()).toBe(0);

    const search = page.getByRole('searchbox', { name: 'Search calls' });
    await search.fill('leaking');
    await until(async () => expect(await cards.count()).toBe(1));
    await search.fill('900456');
    await until(async () => expect(await cards.count()).toBe(1));
    // A caller is found as the card shows them and in the other UK spellings.
    for (const spelling of ['+44 770 090 0456', '07700 900456', '447700900456', '0044 7700 900456']) {
      await search.fill(spelling);
      await until(async () => expect(await cards.count()).toBe(1));
      await cards.first().getByText('+44 770 090 0456').waitFor();
    }
    await search.fill('nothing like this');
    await page.getByText('No matching calls').waitFor();
    await page.getByText('Try adjusting your search or filter criteria.').waitFor();
    await search.fill('');
    await page.getByRole('combobox', { name: 'Filter by status' }).selectOption('answered');
    await until(async () => expect(await cards.count()).toBe(1));
    await cards.first().getByText('2:05').waitFor();
    await page.getByRole('combobox', { name: 'Filter by status' }).selectOption('all');

    await first.getByRole('button', { name: '+44 770 090 0123' }).click();
    const dialog = page.getByRole('dialog', { name: 'Call Details' });
    await dialog.getByText('Full Transcript').waitFor();
    await dialog.getByText('Hi, my boiler is leaking, can someone come tomorrow?').waitFor();
    await dialog.getByText('Notification Sent').waitFor();
    await dialog.getByText('Yes', { exact: true }).waitFor();
    await dialog.getByText('Urgent: boiler leaking').waitFor();
    await page.keyboard.press('Escape');
    await until(async () => expect(await dialog.count()).toBe(0));

    await cards.filter({ hasText: '+44 770 090 0456' }).getByRole('button').first().click();
    await page.getByRole('dialog', { name: 'Call Details' }).getByText('No summary available').waitFor();
  });
});

describe('call logs beyond one page', () => {
  it('counts every call on the cards and loads older calls on demand', async () => {
    const { page, customer } = await customerPage(e2e, { businessName: 'Busy Co' });
    const start = Date.parse('2026-06-01T09:00:00Z');
    // 201 calls: one more than the server's first page; the oldest is the only answered one.
    await e2e.server.database.db
      .insert(calls)
      .values(
        Array.from({ length: 201 }, (_, i) => ({
          userId: customer.user.id,
          fromNumber: `+4477009${String(10000 + i)}`,
          toNumber: '+447700900999',
          status: i === 0 ? ('answered' as const) : ('missed' as const),
          duration: i === 0 ? 30 : 0,
          createdAt: new Date(start + i * 60_000),
        })),
      );
    await page.goto('/dashboard');
    const cards = page.getByRole('list', { name: 'Calls' }).getByRole('listitem');
    await until(async () => expect(await cards.count()).toBe(200));
    await page.getByText('201', { exact: true }).waitFor(); // Total Calls from the server's totals
    await page.getByRole('button', { name: 'Load older calls' }).click();
    await until(async () => expect(await cards.count()).toBe(201));
    await expect(page.getByRole('button', { name: 'Load older calls' }).count()).resolves.toBe(0);
  });
});

describe('admin screens', () => {
  it('number management and usage show their data and empty states', async () => {
    const { page, admin } = await adminPage(e2e);
    const provider = (await admin.get('/api/meta')).body.provider as string;

    await page.goto(`/dashboard/${provider}-numbers`);
    await page.getByText(new RegExp(`Monitor costs and optimize your ${provider} spending`, 'i')).waitFor();
    await page.getByText('Active Numbers').waitFor();
    await page.getByText('No numbers found matching your filters').waitFor();

    await page.goto('/dashboard/api-usage');
    await page.getByText('Current month usage and spending').waitFor();
    await page.getByText('Account Balance').waitFor();
    await page.getByText("Calls to Owners' Phones", { exact: true }).waitFor();
    await page.getByText('Daily limit per owner').waitFor();
    await page.getByText('120 min', { exact: true }).waitFor();
    await page.getByRole('button', { name: /View All Numbers/ }).click();
    await page.waitForURL((u) => u.pathname === `/dashboard/${provider}-numbers`);
  });

  it('the admin dashboard shows agent capacity in use and the calls turned to voicemail for capacity in the last 24 hours', async () => {
    const { page } = await adminPage(e2e);
    const { activeCustomer } = await import('../helpers/accounts.js');
    const { user } = await activeCustomer(e2e.server, { businessName: 'Capacity Co' });
    const at = new Date();
    const tagged = (tags: { agentBusy?: boolean; agentStalled?: boolean }) => ({ userId: user.id, fromNumber: '+447700900111', toNumber: '+441130000001', mode: 'agent' as const, status: 'voicemail' as const, createdAt: at, ...tags });
    await e2e.server.database.db.insert(calls).values([tagged({ agentBusy: true }), tagged({ agentBusy: true }), tagged({ agentStalled: true }), tagged({})]);
    const pools = e2e.server.services.agentEngines.pools;
    const conversation = pools.admitConversation();
    try {
      const capacity = Math.min(pools.llm.conversationCapacity(), pools.stt?.conversationCapacity() ?? Infinity);
      await page.goto('/dashboard/admin');
      const card = (label: string) => page.locator('div', { has: page.getByText(label, { exact: true }) }).filter({ has: page.getByTestId('stat-value') }).last();
      const inUse = card('Agent Capacity in Use');
      await inUse.getByTestId('stat-value').getByText(`1 / ${capacity}`, { exact: true }).waitFor();
      await inUse.getByText(/^Conversations\. Slots in use: Ollama 0\/\d+/).waitFor();
      const turned = card('Turned to Voicemail for Capacity (24h)');
      await turned.getByTestId('stat-value').getByText('3', { exact: true }).waitFor();
      await turned.getByText('2 busy at answer · 1 stalled mid-call', { exact: true }).waitFor();
    } finally {
      conversation?.release();
    }
  });

  it('the admin users table changes a status and extends a trial', async () => {
    const { page } = await adminPage(e2e);
    const { activeCustomer } = await import('../helpers/accounts.js');
    const customer = await activeCustomer(e2e.server, { businessName: 'Status Co' });
    await page.goto('/dashboard/admin');
    const row = page.getByRole('row').filter({ hasText: 'Status Co' });
    await row.waitFor();
    await row.getByRole('combobox', { name: 'Status of Status Co' }).selectOption('suspended');
    await page.getByTestId('toast').getByText('User Updated').waitFor();
    await row.locator('span', { hasText: /^Suspended$/ }).waitFor();
    await row.getByRole('button', { name: '+14d: extend trial of Status Co' }).click();
    await page.getByTestId('toast').getByText('User trial has been extended by 7 days.').waitFor();

    // The delete button asks first; dismissing keeps the user.
    page.once('dialog', (d) => {
      expect(d.message()).toBe(
        `Are you sure you want to permanently delete user "${customer.email}"? This will delete all their call logs and questions. This action cannot be undone.`,
      );
      void d.dismiss();
    });
    await row.getByRole('button', { name: 'Delete Status Co' }).click();
    await row.waitFor();
  });
});
