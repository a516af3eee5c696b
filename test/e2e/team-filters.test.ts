// Call Logs by person (issue 58, item 7) in Chromium at 375 and 1280 px with axe-core and the
// 320 px fit check: a business of three whose calls name their person filters them by person
// through the server (?staffId=), each card says whom the call was for, and Call Details shows
// what routing did. Runs against the real server: the team routes and the call logs' person
// fields and filter (issue 58 parts A and B) must be merged.
import { describe, expect, it } from 'vitest';
import { calls } from '../helpers/tables.js';
import { seriousViolations } from './support/axe.js';
import { attachScreenshot, customerPage, useE2E } from './support/browser.js';
import { outsideViewport } from './support/viewport-fit.js';

const e2e = useE2E({}, 120_000);

describe.each([375, 1280])('Call Logs by person at %i px', (width) => {
  it("filters the calls to one person's through the server and names each call's person", async ({ annotate }) => {
    const { page, customer } = await customerPage(e2e, { businessName: 'Hale Heating', businessPhone: `07700 9007${width === 375 ? '61' : '62'}` }, { width, height: 900 });
    const add = async (name: string) => {
      const res = await customer.client.post('/api/user/team', { name });
      expect(res.status).toBe(201);
      return res.body.member.id as number;
    };
    const sarah = await add('Sarah');
    const tom = await add('Tom');
    const now = Date.now();
    const seeded = [
      { staffId: sarah, routingNote: 'Asked for Sarah: not working today, message taken for Sarah', fromNumber: '+447700900311' },
      { staffId: tom, routingNote: null, fromNumber: '+447700900312' },
      { staffId: sarah, routingNote: null, fromNumber: '+447700900313' },
    ];
    await e2e.server.database.db.insert(calls).values(
      seeded.map((c, i) => ({ userId: customer.user.id, toNumber: '+447700900999', status: 'voicemail' as const, duration: 30, createdAt: new Date(now - (i + 1) * 60_000), aiSummary: 'Wants a quote.', ...c })),
    );

    const asked: string[] = [];
    page.on('request', (r) => {
      const url = new URL(r.url());
      if (url.pathname === '/api/call-logs') asked.push(url.search);
    });
    await page.goto('/dashboard');
    await page.getByRole('list', { name: 'Calls' }).getByText('For Tom').waitFor();
    await page.getByRole('combobox', { name: 'Filter by person' }).selectOption({ label: 'Sarah' });
    await page.waitForURL(`**/dashboard?staffId=${sarah}`);
    await page.getByText('Showing 2 of 2 calls: for Sarah').waitFor();
    expect(asked).toContain(`?staffId=${sarah}`);
    const list = page.getByRole('list', { name: 'Calls' });
    expect(await list.getByText('For Sarah', { exact: true }).count()).toBe(2);
    expect(await list.getByText('For Tom', { exact: true }).count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    expect(await outsideViewport(page)).toEqual([]);
    await attachScreenshot(page, annotate, `team-calls-${width}`);

    // Call Details says whom the call was for and what routing did.
    await list.getByRole('button', { name: '+44 770 090 0311' }).click();
    const details = page.getByRole('dialog', { name: 'Call Details' });
    await details.getByText('Asked for Sarah: not working today, message taken for Sarah').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
  });
});
