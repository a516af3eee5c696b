// Issue 55 in the console: the Knowledge Base's "Learn from my website" card shows a finished
// crawl (what it could not read, its counts) and the drafts it made; the owner approves two (one
// edited, while unsaved edits sit in the knowledge base), rejects one, sees the change proposal,
// rejects the rest at once, and the knowledge base text area shows what the server now holds.
// The site, the crawl and the drafts are seeded straight into the database: crawling is part A's.
import { and, eq } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import type { Page } from 'playwright-core';
import { tablesOf } from '../../core/db/schema.js';
import { seriousViolations } from './support/axe.js';
import { openAnsweringCards } from './support/answering-cards.js';
import { customerPage, useE2E } from './support/browser.js';

const e2e = useE2E();

const SITE = 'https://www.smith-plumbing.example.co.uk/';
const LONG_PAGE = `${SITE}services/boiler-servicing-and-annual-gas-safety-certificates-for-landlords-in-west-yorkshire`;
const KB = 'Q: Do you cover Leeds?\nA: Yes, all of Leeds.\n\nQ: How much is a boiler service?\nA: A boiler service is £85.';
const WEEK = { mon: [{ open: '08:00', close: '17:30' }], tue: [{ open: '08:00', close: '17:30' }], wed: [{ open: '08:00', close: '17:30' }], thu: [{ open: '08:00', close: '17:30' }], fri: [{ open: '08:00', close: '16:00' }], sat: [], sun: [] };

async function seed(userId: number) {
  const { websiteSites, websiteCrawls, kbDrafts } = tablesOf(e2e.server.database.db);
  const db = e2e.server.database.db;
  const now = new Date();
  await db.insert(websiteSites).values({ userId, url: SITE, weekly: true, nextCrawlAt: new Date(now.getTime() + 7 * 86_400_000), updatedAt: now });
  const [crawl] = await db
    .insert(websiteCrawls)
    .values({
      userId,
      url: SITE,
      state: 'done',
      trigger: 'owner',
      pagesRead: 6,
      pagesUnchanged: 2,
      draftsMade: 4,
      draftsDropped: 1,
      problems: [{ url: `${SITE}get-a-quote`, problem: 'This page needs JavaScript to show its text, so we could not read it.' }],
      startedAt: now,
      finishedAt: now,
    })
    .returning();
  const draft = { userId, crawlId: crawl!.id, currentQuestion: null, currentAnswer: null, hours: null };
  const rows = await db
    .insert(kbDrafts)
    .values([
      { ...draft, kind: 'new', question: 'Can I park outside?', answer: 'Yes, there is free parking behind the shop.', sourceUrl: `${SITE}contact`, quote: 'There is free parking behind the shop on Mill Lane.' },
      {
        ...draft,
        kind: 'change',
        question: 'How much is a boiler service?',
        answer: 'A boiler service is £95.',
        sourceUrl: LONG_PAGE,
        quote: 'An annual boiler service with a gas safety certificate costs £95 including VAT and parts under £20.',
        currentQuestion: 'How much is a boiler service?',
        currentAnswer: 'A boiler service is £85.',
      },
      { ...draft, kind: 'areas', question: 'Which areas do you cover?', answer: 'Leeds, Bradford and Wakefield.', sourceUrl: `${SITE}areas`, quote: 'We cover Leeds, Bradford and Wakefield.' },
      { ...draft, kind: 'hours', question: 'When are you open?', answer: 'Monday to Thursday 8am to 5:30pm, Friday 8am to 4pm.', sourceUrl: `${SITE}contact`, quote: 'Open Monday to Thursday 8am–5.30pm and Friday 8am–4pm.', hours: WEEK },
    ])
    .returning();
  return { drafts: rows, kbDrafts };
}

/** Several engineers' tests run at once here: what the page shows is given 30 s to land. */
const until = (check: () => Promise<void>) => vi.waitFor(check, { timeout: 30_000, interval: 100 });
const expectToast = (page: Page, text: string) => until(async () => expect((await page.getByTestId('toast').allInnerTexts()).join(' | ')).toContain(text));

const kbArea = (page: Page) => page.getByRole('textbox', { name: 'Knowledge Base', exact: true });
const draftCard = (page: Page, question: string) => page.getByRole('article', { name: question });

describe('learning from the owner’s website: the drafts in the console', () => {
  it.each([
    [375, false],
    [1280, true],
  ])('at %i px (dark: %s): shows the crawl and its drafts, approves two (one edited) without losing unsaved edits, rejects one, axe clean', async (width, dark) => {
    const { page, customer } = await customerPage(e2e, {}, { width, height: 900, dark });
    page.setDefaultTimeout(30_000);
    expect((await customer.client.patch('/api/user/settings', { aiMode: 'agent', knowledgeBase: KB })).status).toBe(200);
    const { kbDrafts } = await seed(customer.user.id);

    await page.goto('/dashboard/notifications');
    await openAnsweringCards(page, ['Knowledge Base', 'Learn from my website']);
    await draftCard(page, 'Can I park outside?').waitFor();

    // The finished crawl: its button, its counts, what it could not read.
    expect(await page.getByRole('textbox', { name: 'Your website' }).inputValue()).toBe(SITE);
    await page.getByRole('button', { name: 'Check my website now' }).waitFor();
    expect(await page.getByRole('switch', { name: 'Check my website every week' }).getAttribute('aria-checked')).toBe('true');
    const status = await page.getByRole('status').filter({ hasText: 'pages read' }).innerText();
    expect(status).toContain('6 pages read: 4 drafts made, 1 dropped for facts not on the page, 2 pages unchanged since the last check.');
    const problems = page.getByRole('region', { name: 'What we could not read' });
    expect(await problems.innerText()).toContain('needs JavaScript');

    // Each draft cites its page (opened apart from the console) and its sentence.
    const parking = draftCard(page, 'Can I park outside?');
    const source = parking.getByRole('link', { name: `${SITE}contact` });
    expect(await source.getAttribute('rel')).toContain('noopener');
    expect(await source.getAttribute('target')).toBe('_blank');
    expect(await parking.innerText()).toContain('There is free parking behind the shop on Mill Lane.');

    // The change proposal beside the owner's own answer.
    const change = draftCard(page, 'How much is a boiler service?');
    expect((await change.innerText()).replace(/\s+/g, ' ')).toContain(
      'Your site now says “An annual boiler service with a gas safety certificate costs £95 including VAT and parts under £20.”; your answer says “A boiler service is £85.”',
    );

    // The hours draft: its week as a table and the offer for Call Handling.
    const hours = draftCard(page, 'When are you open?');
    expect(await hours.getByRole('table', { name: 'Opening hours from your website' }).innerText()).toMatch(/Friday\s+08:00 to 16:00/);
    await hours.getByRole('checkbox', { name: 'Also use these as my opening hours in Call Handling' }).waitFor();

    expect(await seriousViolations(page)).toEqual([]);
    if (width === 375) {
      // A phone's thumb: the draft's buttons are 44 px tall.
      for (const name of ['Approve', 'Reject']) expect((await parking.getByRole('button', { name }).boundingBox())!.height).toBeGreaterThanOrEqual(44);
    }

    // An unsaved entry in the knowledge base, then the parking draft approved with its answer edited.
    await kbArea(page).fill(`${KB}\n\nQ: Are you open on Sundays?\nA: Only for emergencies.`);
    await parking.getByRole('textbox', { name: 'Answer' }).fill('Yes, free parking on Mill Lane behind the shop.');
    await parking.getByRole('button', { name: 'Approve' }).click();
    await expectToast(page, 'Draft approved');
    await until(async () => expect(await draftCard(page, 'Can I park outside?').count()).toBe(0));
    await until(async () => {
      const shown = await kbArea(page).inputValue();
      expect(shown).toContain('Only for emergencies.');
      expect(shown).toContain('Yes, free parking on Mill Lane behind the shop.');
    });

    // The change approved as drafted: the owner's £85 becomes £95 in the text area, the unsaved entry still there.
    await change.getByRole('button', { name: 'Approve' }).click();
    await until(async () => expect(await draftCard(page, 'How much is a boiler service?').count()).toBe(0));
    await until(async () => {
      const shown = await kbArea(page).inputValue();
      expect(shown).toContain('£95');
      expect(shown).not.toContain('£85');
      expect(shown).toContain('Only for emergencies.');
    });

    // One rejected.
    await draftCard(page, 'Which areas do you cover?').getByRole('button', { name: 'Reject' }).click();
    await expectToast(page, 'Draft rejected');
    await until(async () => expect(await draftCard(page, 'Which areas do you cover?').count()).toBe(0));

    // What was stored: the approved wording in the knowledge base, the unsaved entry not (it is the owner's to save).
    const stored = (await customer.client.get('/api/auth/me')).body.user.knowledgeBase as string;
    expect(stored).toContain('Yes, free parking on Mill Lane behind the shop.');
    expect(stored).toContain('£95');
    expect(stored).not.toContain('Only for emergencies.');
    const states = await e2e.server.database.db.select({ question: kbDrafts.question, state: kbDrafts.state }).from(kbDrafts).where(eq(kbDrafts.userId, customer.user.id));
    expect(Object.fromEntries(states.map((s) => [s.question, s.state]))).toEqual({
      'Can I park outside?': 'approved',
      'How much is a boiler service?': 'approved',
      'Which areas do you cover?': 'rejected',
      'When are you open?': 'pending',
    });

    // The rest rejected at once, after a confirmation.
    await page.getByRole('button', { name: 'Reject all' }).click();
    const confirm = page.getByRole('dialog', { name: 'Reject the last draft?' });
    await confirm.getByRole('button', { name: 'Reject all' }).click();
    await until(async () => expect(await page.getByRole('article').count()).toBe(0));
    const left = await e2e.server.database.db.select().from(kbDrafts).where(and(eq(kbDrafts.userId, customer.user.id), eq(kbDrafts.state, 'pending')));
    expect(left).toEqual([]);
    expect(await seriousViolations(page)).toEqual([]);
  });
});

describe('a crawl under way in the console', () => {
  it('says a queued crawl waits its turn, then follows the running crawl’s pages and drafts as they are stored', async () => {
    const { page, customer } = await customerPage(e2e, {}, { width: 375, height: 800 });
    page.setDefaultTimeout(30_000);
    expect((await customer.client.patch('/api/user/settings', { aiMode: 'agent', knowledgeBase: KB })).status).toBe(200);
    const { websiteSites, websiteCrawls } = tablesOf(e2e.server.database.db);
    const db = e2e.server.database.db;
    await db.insert(websiteSites).values({ userId: customer.user.id, url: SITE, weekly: false, nextCrawlAt: null, updatedAt: new Date() });
    const [crawl] = await db.insert(websiteCrawls).values({ userId: customer.user.id, url: SITE, state: 'queued', trigger: 'owner', problems: [] }).returning();

    await page.goto('/dashboard/notifications');
    await openAnsweringCards(page, ['Learn from my website']);
    const status = page.getByRole('status').filter({ hasText: /crawl|Reading/ });
    await until(async () => expect(await status.innerText()).toContain("Waiting for another business's crawl to finish"));
    expect(await page.getByRole('button', { name: 'Check my website now' }).isDisabled()).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);

    await db.update(websiteCrawls).set({ state: 'running', startedAt: new Date(), pagesRead: 3, draftsMade: 2 }).where(eq(websiteCrawls.id, crawl!.id));
    await until(async () => expect(await status.innerText()).toContain('Reading your website: 3 pages read, 2 drafts made'));

    await db.update(websiteCrawls).set({ state: 'failed', finishedAt: new Date(), error: 'Your website refused our requests (403).' }).where(eq(websiteCrawls.id, crawl!.id));
    await until(async () => expect(await page.getByRole('status').filter({ hasText: 'could not read' }).innerText()).toContain('We could not read your website. Your website refused our requests (403).'));
    expect(await page.getByRole('button', { name: 'Check my website now' }).isDisabled()).toBe(false);
  });
});
