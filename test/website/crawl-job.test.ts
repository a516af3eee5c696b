// Issue 55 part C: the website-crawl job on the real durable queue, with in-test crawler and
// drafter (website-parts.ts): what it hands the crawler, the hashes that spare the model an
// unchanged page, drafts the owner rejected not offered again, a failed crawl's sentence,
// a crawl queued while no worker ran, and the weekly re-crawl's tick.
import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { WEBSITE_LIMITS } from '../../contract/rules.js';
import { tablesOf } from '../../core/db/schema.js';
import { activeCustomer } from '../helpers/accounts.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { crawlEnded, crawlOnce, page, put, scriptedDrafter, scriptedSite } from './website-parts.js';

const DAY = 86_400_000;
const quote = 'As the page says.';
let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(background = true) {
  const site = scriptedSite();
  const drafter = scriptedDrafter();
  server = await startTestServer({
    env: { WEBSITE_CRAWL_PAUSE_MS: '7', WEBSITE_DAILY_CRAWLS: '1' },
    website: { crawlSite: site.crawlSite, drafter: () => drafter.draftPage, guard: { allowLoopback: true } },
    background: { website: background },
  });
  const { client, user } = await activeCustomer(server);
  await put(client, { url: 'www.example.co.uk' });
  return { site, drafter, client, userId: user.id, server };
}

describe('the website-crawl job', () => {
  it('hands the crawler the site, the guard, the pause and a 5-minute deadline, and counts pages and drafts as it goes', async () => {
    const { site, drafter, client, userId } = await start();
    site.pages = [page('/', 'Welcome.'), page('/prices', 'A boiler service is £85.')];
    drafter.drafts.set(page('/prices', '').url, [{ kind: 'new', question: 'How much is a boiler service?', answer: 'It is £85.', quote: 'A boiler service is £85.' }]);
    drafter.dropped = 1;
    const before = Date.now();
    const view = await crawlOnce(client);
    expect(site.calls).toHaveLength(1);
    const { url, opts } = site.calls[0]!;
    expect(url).toBe('https://www.example.co.uk/');
    expect(opts.guard).toEqual({ allowLoopback: true });
    expect(opts.pauseMs).toBe(7);
    expect(opts.deadline).toBeGreaterThanOrEqual(before + WEBSITE_LIMITS.crawlMs);
    expect(opts.deadline).toBeLessThanOrEqual(Date.now() + WEBSITE_LIMITS.crawlMs);
    expect(view.crawl).toMatchObject({ state: 'done', pagesRead: 2, pagesUnchanged: 0, draftsMade: 1, draftsDropped: 2, problems: [] });
    expect(view.drafts).toEqual([expect.objectContaining({ kind: 'new', question: 'How much is a boiler service?', sourceUrl: 'https://www.example.co.uk/prices', quote: 'A boiler service is £85.', hours: null, currentQuestion: null })]);
    // The drafter is handed the owner's knowledge base as it stands.
    expect(drafter.calls.map((c) => c.knowledgeBase)).toEqual([null, null]);
    const { websitePages } = tablesOf(server!.database.db);
    const pages = await server!.database.db.select().from(websitePages).where(eq(websitePages.userId, userId)).orderBy(websitePages.url);
    expect(pages.map((p) => [p.url, p.contentHash])).toEqual([
      ['https://www.example.co.uk/', createHash('sha256').update('Welcome.').digest('hex')],
      ['https://www.example.co.uk/prices', createHash('sha256').update('A boiler service is £85.').digest('hex')],
    ]);
  });

  it('spends no model call on a page unchanged since the last crawl, and drafts the one that changed', async () => {
    const { site, drafter, client, server: s } = await start();
    site.pages = [page('/', 'Welcome.'), page('/prices', 'A boiler service is £85.')];
    await crawlOnce(client);
    expect(drafter.calls).toHaveLength(2);
    drafter.calls.length = 0;
    site.pages = [page('/', 'Welcome.'), page('/prices', 'A boiler service is £95.')];
    s.clock.offsetMs = DAY + 3600_000; // the next day: the daily cap (1 here) allows another
    const view = await crawlOnce(client);
    expect(drafter.calls.map((c) => c.url)).toEqual(['https://www.example.co.uk/prices']);
    expect(view.crawl).toMatchObject({ state: 'done', pagesRead: 2, pagesUnchanged: 1 });
  });

  it('does not offer again a draft the owner rejected, nor one already pending', async () => {
    const { site, drafter, client, server: s } = await start();
    const prices = page('/prices', 'A boiler service is £85.');
    site.pages = [prices];
    const offered = { kind: 'new' as const, question: 'How much is a boiler service?', answer: 'It is £85.', quote };
    const kept = { kind: 'new' as const, question: 'Do you cover Leeds?', answer: 'Yes.', quote };
    drafter.drafts.set(prices.url, [offered, kept]);
    const first = await crawlOnce(client);
    const rejected = first.drafts.find((d: { question: string }) => d.question === offered.question);
    expect((await client.post(`/api/knowledge/drafts/${rejected.id}/reject`)).status).toBe(200);
    // The page changed (so it is drafted again) but the drafter proposes the same two.
    site.pages = [page('/prices', 'A boiler service is £85 (parts extra).')];
    drafter.drafts.set(prices.url, [{ ...offered, question: ' how much is a  boiler service? ' }, kept]);
    s.clock.offsetMs = DAY + 3600_000;
    const second = await crawlOnce(client);
    expect(drafter.calls).toHaveLength(2);
    expect(second.crawl.draftsMade).toBe(0);
    expect(second.drafts.map((d: { question: string }) => d.question)).toEqual(['Do you cover Leeds?']);
  });

  it('ends failed with the crawler\'s sentence when the site could not be read', async () => {
    const { site, client } = await start();
    site.refuse = 'Your website refused to be read (403 Forbidden).';
    const view = await crawlOnce(client);
    expect(view.crawl).toMatchObject({ state: 'failed', error: 'Your website refused to be read (403 Forbidden).', pagesRead: 0 });
    expect(view.crawl.finishedAt).toEqual(expect.any(String));
  });

  it('keeps a crawl queued while no worker runs, and runs it once one starts (the queue is in the database)', async () => {
    const { site, client, server: s } = await start(false);
    site.pages = [page('/', 'Welcome.')];
    const res = await client.post('/api/knowledge/website/crawl');
    expect(res.status).toBe(202);
    expect(res.body.crawl.state).toBe('queued');
    expect(site.calls).toHaveLength(0);
    s.services.website.start();
    const view = await crawlEnded(client);
    expect(view.crawl).toMatchObject({ state: 'done', pagesRead: 1 });
  });
});

describe('the weekly re-crawl', () => {
  it('starts a weekly crawl for a site that is due, not counted against the daily cap, and moves the date on by a week', async () => {
    const { site, client, server: s, userId } = await start();
    site.pages = [page('/', 'Welcome.')];
    const { websiteSites, websiteCrawls } = tablesOf(s.database.db);
    const due = (await s.database.db.select().from(websiteSites).where(eq(websiteSites.userId, userId)))[0]!.nextCrawlAt!;
    expect(await s.services.website.weeklyTick()).toBe(0); // not due yet
    s.clock.offsetMs = due.getTime() - Date.now() + 60_000;
    await crawlOnce(client); // the day's one owner crawl (WEBSITE_DAILY_CRAWLS=1) is spent
    expect((await client.post('/api/knowledge/website/crawl')).status).toBe(429);
    expect(await s.services.website.weeklyTick()).toBe(1);
    expect(await s.services.website.weeklyTick()).toBe(0); // once per week, however often it ticks
    const view = await crawlEnded(client);
    expect(view.crawl).toMatchObject({ trigger: 'weekly', state: 'done' });
    expect(view.site.nextCrawlAt).toBe(new Date(due.getTime() + 7 * DAY).toISOString());
    const crawls = await s.database.db.select().from(websiteCrawls).where(eq(websiteCrawls.userId, userId)).orderBy(websiteCrawls.id);
    expect(crawls.map((c) => c.trigger)).toEqual(['owner', 'weekly']);
    expect(view.crawlsLeftToday).toBe(0);
    expect(site.calls).toHaveLength(2);
  });

  it('leaves a site with weekly off alone', async () => {
    const { client, server: s } = await start();
    await put(client, { url: 'www.example.co.uk', weekly: false });
    s.clock.offsetMs = 30 * DAY;
    expect(await s.services.website.weeklyTick()).toBe(0);
  });
});
