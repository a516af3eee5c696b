// Issue 55 part C: the website's routes through the real server and its real crawl job, with
// in-test crawler and drafter (website-parts.ts). Every answer and every 400 the console shows,
// and what approving writes into the knowledge base the agent reads.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tablesOf } from '../../core/db/schema.js';
import { activeCustomer } from '../helpers/accounts.js';
import type { ApiClient } from '../helpers/client.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { crawlEnded, crawlOnce, page, put, scriptedDrafter, scriptedSite } from './website-parts.js';

const DAY = 86_400_000;
const site = scriptedSite();
const drafter = scriptedDrafter();
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({
    env: { WEBSITE_DAILY_CRAWLS: '3', WEBSITE_CRAWL_PAUSE_MS: '0' },
    website: { crawlSite: site.crawlSite, drafter: () => drafter.draftPage },
    background: { website: true },
  });
}, 60_000);
afterAll(() => server.close());

async function owner(knowledgeBase?: string): Promise<{ client: ApiClient; id: number }> {
  const { client, user } = await activeCustomer(server);
  if (knowledgeBase !== undefined) expect((await client.patch('/api/user/settings', { knowledgeBase })).status).toBe(200);
  return { client, id: user.id };
}

const kbOf = async (userId: number) => {
  const { users } = tablesOf(server.database.db);
  return (await server.database.db.select({ kb: users.knowledgeBase }).from(users).where(eq(users.id, userId)))[0]!.kb;
};

describe('the owner\'s website address', () => {
  it('starts empty, with the day\'s crawls all left', async () => {
    const { client } = await owner();
    const res = await client.get('/api/knowledge/website');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ site: null, crawl: null, drafts: [], crawlsLeftToday: 3 });
  });

  it('is saved with https:// added, weekly by default with the next re-crawl a week out; weekly off clears the date', async () => {
    const { client } = await owner();
    const before = Date.now();
    const res = await put(client, { url: '  www.example.co.uk ' });
    expect(res.status).toBe(200);
    expect(res.body.site.url).toBe('https://www.example.co.uk/');
    expect(res.body.site.weekly).toBe(true);
    const next = Date.parse(res.body.site.nextCrawlAt);
    expect(next).toBeGreaterThanOrEqual(before + 7 * DAY - 1000);
    expect(next).toBeLessThanOrEqual(Date.now() + 7 * DAY + 1000);
    const off = await put(client, { url: 'http://example.co.uk/about', weekly: false });
    expect(off.body.site).toEqual({ url: 'http://example.co.uk/about', weekly: false, nextCrawlAt: null });
  });

  it.each([
    [{ url: 'ftp://example.co.uk' }, "Your website's address must start with http:// or https://."],
    [{ url: 'localhost' }, 'Enter the whole address of your website, with its ending, e.g. example.co.uk.'],
    [{ url: 'https://me:secret@example.co.uk' }, 'Leave the user name and password out of the address: only public pages can be read.'],
    [{ url: 'http://10.0.0.5/' }, '10.0.0.5 is a private address; only websites on the public internet can be read.'],
    [{ url: 'http://127.0.0.1:8080' }, '127.0.0.1 is a loopback address; only websites on the public internet can be read.'],
    [{ url: 'http://[::1]/' }, '::1 is a loopback address; only websites on the public internet can be read.'],
    [{ url: 'http://169.254.169.254/latest' }, '169.254.169.254 is a link-local address; only websites on the public internet can be read.'],
    [{ url: 'https://exa mple.co.uk' }, 'That is not a website address; enter it as it appears in a browser, e.g. www.example.co.uk.'],
    [{ url: '' }, "Enter your website's address (at most 500 characters), e.g. www.example.co.uk."],
    [{ url: `https://example.co.uk/${'a'.repeat(500)}` }, "Enter your website's address (at most 500 characters), e.g. www.example.co.uk."],
  ])('refuses %j with a sentence (400)', async (body, message) => {
    const { client } = await owner();
    const res = await put(client, body);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(message);
    expect((await client.get('/api/knowledge/website')).body.site).toBeNull();
  });

  it('refuses a body with fields it does not know (400)', async () => {
    const { client } = await owner();
    const res = await put(client, { url: 'example.co.uk', depth: 3 });
    expect(res.status).toBe(400);
    expect(res.body.message).toEqual(expect.any(String));
  });
});

describe('reading the site', () => {
  it('answers 400 when no site was given', async () => {
    const { client } = await owner();
    const res = await client.post('/api/knowledge/website/crawl');
    expect(res.status).toBe(400);
    expect(res.body.message).toBe("Add your website's address first.");
  });

  it('queues a crawl (202), refuses a second while it is open (409), and the crawl ends done with its problems', async () => {
    const { client } = await owner();
    await put(client, { url: 'www.example.co.uk' });
    let release!: () => void;
    site.hold = new Promise<void>((r) => (release = r));
    site.pages = [page('/held', 'Held page.')];
    site.outcome = { problems: [{ url: 'https://www.example.co.uk/menu.pdf', problem: 'A PDF: skipped.' }], stoppedEarly: 'The site has more than 200 pages; the first 200 were read.' };
    try {
      const first = await client.post('/api/knowledge/website/crawl');
      expect(first.status).toBe(202);
      expect(first.body.crawl).toMatchObject({ state: 'queued', trigger: 'owner', url: 'https://www.example.co.uk/', pagesRead: 0 });
      expect(first.body.crawlsLeftToday).toBe(2);
      const second = await client.post('/api/knowledge/website/crawl');
      expect(second.status).toBe(409);
      expect(second.body.message).toBe('Your website is already being read.');
    } finally {
      release();
      site.hold = null;
    }
    const done = await crawlEnded(client);
    expect(done.crawl).toMatchObject({ state: 'done', pagesRead: 1, error: null });
    expect(done.crawl.problems).toEqual([
      { url: 'https://www.example.co.uk/menu.pdf', problem: 'A PDF: skipped.' },
      { url: 'https://www.example.co.uk/', problem: 'The site has more than 200 pages; the first 200 were read.' },
    ]);
    site.outcome = { problems: [], stoppedEarly: null };
  });

  it('allows WEBSITE_DAILY_CRAWLS a London day (429 saying when), and again the next day', async () => {
    const { client } = await owner();
    await put(client, { url: 'www.example.co.uk' });
    site.pages = [];
    for (let i = 0; i < 3; i++) await crawlOnce(client);
    expect((await client.get('/api/knowledge/website')).body.crawlsLeftToday).toBe(0);
    const refused = await client.post('/api/knowledge/website/crawl');
    expect(refused.status).toBe(429);
    expect(refused.body.message).toBe('Your website can be read 3 times a day; try again after midnight.');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(25 * 3600);
    server.clock.offsetMs += Number(refused.headers.get('retry-after')) * 1000 + 1000;
    try {
      expect((await client.get('/api/knowledge/website')).body.crawlsLeftToday).toBe(3);
      await crawlOnce(client);
    } finally {
      server.clock.offsetMs = 0;
    }
  });
});

/** An owner whose site's pages yield `drafts` (by page), crawled once. */
async function ownerWithDrafts(knowledgeBase: string | undefined, drafts: Parameters<typeof drafter.drafts.set>[1]) {
  const o = await owner(knowledgeBase);
  const path = `/p${o.id}`;
  await put(o.client, { url: 'www.example.co.uk' });
  site.pages = [page(path, `Page of owner ${o.id}.`)];
  drafter.drafts.set(page(path, '').url, drafts);
  const view = await crawlOnce(o.client);
  expect(view.drafts).toHaveLength(drafts.length);
  return { ...o, drafts: view.drafts as Array<{ id: number; kind: string; question: string }> };
}

const quote = 'As the page says.';

describe('approving and rejecting drafts', () => {
  it('appends new, hours and areas entries after a blank line, leaving the owner\'s text as it was', async () => {
    const o = await ownerWithDrafts('Q: Do you park?\nA: Yes, round the back.', [
      { kind: 'new', question: 'How much is a boiler service?', answer: 'A boiler service is £85.', quote },
      { kind: 'hours', question: 'When are you open?', answer: 'Monday to Friday, 9am to 5pm.', quote, hours: null },
      { kind: 'areas', question: 'Which areas do you cover?', answer: 'Leeds and Bradford.', quote },
    ]);
    for (const d of o.drafts) expect((await o.client.post(`/api/knowledge/drafts/${d.id}/approve`, {})).status).toBe(200);
    expect(await kbOf(o.id)).toBe([
      'Q: Do you park?\nA: Yes, round the back.',
      'Q: How much is a boiler service?\nA: A boiler service is £85.',
      'Q: When are you open?\nA: Monday to Friday, 9am to 5pm.',
      'Q: Which areas do you cover?\nA: Leeds and Bradford.',
    ].join('\n\n'));
    expect((await o.client.get('/api/knowledge/website')).body.drafts).toEqual([]);
    const { auditLog } = tablesOf(server.database.db);
    const rows = await server.database.db.select().from(auditLog).where(and(eq(auditLog.actorUserId, o.id), eq(auditLog.action, 'website.draft.approve')));
    expect(rows).toHaveLength(3);
  });

  it('a change replaces the answer of the owner\'s entry in place', async () => {
    const kb = 'Q: Do you park?\nA: Yes.\n\nQ: How much is a boiler service?\nA: £85.\n\nQ: Are you insured?\nA: Fully.';
    const o = await ownerWithDrafts(kb, [
      { kind: 'change', question: 'How much is a boiler service?', answer: 'A boiler service is £95.', quote, currentQuestion: 'How much is a boiler service?', currentAnswer: '£85.' },
    ]);
    const res = await o.client.post(`/api/knowledge/drafts/${o.drafts[0]!.id}/approve`, {});
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ knowledgeBase: 'Q: Do you park?\nA: Yes.\n\nQ: How much is a boiler service?\nA: A boiler service is £95.\n\nQ: Are you insured?\nA: Fully.', drafts: [], decided: 1 });
    expect(await kbOf(o.id)).toBe(res.body.knowledgeBase);
  });

  it('a change to an entry the owner has edited since is appended, and what they wrote is kept', async () => {
    const o = await ownerWithDrafts('Q: How much is a boiler service?\nA: £85.', [
      { kind: 'change', question: 'How much is a boiler service?', answer: 'A boiler service is £95.', quote, currentQuestion: 'How much is a boiler service?', currentAnswer: '£85.' },
    ]);
    expect((await o.client.patch('/api/user/settings', { knowledgeBase: 'Q: How much is a boiler service?\nA: £90 from January.' })).status).toBe(200);
    const res = await o.client.post(`/api/knowledge/drafts/${o.drafts[0]!.id}/approve`, {});
    expect(res.body.knowledgeBase).toBe('Q: How much is a boiler service?\nA: £90 from January.\n\nQ: How much is a boiler service?\nA: A boiler service is £95.');
  });

  it('writes the owner\'s edit of the question and answer, and refuses an empty or long one (400)', async () => {
    const o = await ownerWithDrafts(undefined, [{ kind: 'new', question: 'Price?', answer: 'It is £85.', quote }]);
    const url = `/api/knowledge/drafts/${o.drafts[0]!.id}/approve`;
    const empty = await o.client.post(url, { answer: '' });
    expect(empty.status).toBe(400);
    expect(empty.body.message).toBe('The answer needs 1 to 1000 characters.');
    const long = await o.client.post(url, { question: 'q'.repeat(301) });
    expect(long.body.message).toBe('The question needs 1 to 300 characters.');
    const res = await o.client.post(url, { question: 'How much is a boiler service?', answer: 'From £85, parts extra.' });
    expect(res.status).toBe(200);
    expect(res.body.knowledgeBase).toBe('Q: How much is a boiler service?\nA: From £85, parts extra.');
  });

  it('sets Call Handling\'s opening hours from an hours draft when asked, through its own rules', async () => {
    const week = { mon: [{ open: '09:00', close: '17:00' }], tue: [{ open: '09:00', close: '17:00' }], wed: [], thu: [], fri: [{ open: '09:00', close: '12:30' }], sat: [], sun: [] };
    const bad = { ...week, wed: [{ open: '18:00', close: '09:00' }] };
    const o = await ownerWithDrafts(undefined, [
      { kind: 'hours', question: 'When are you open?', answer: 'Mon and Tue 9 to 5, Fri 9 to 12:30.', quote, hours: week },
      { kind: 'hours', question: 'When is the shop open?', answer: 'Wednesdays 6pm to 9am.', quote, hours: bad },
      { kind: 'new', question: 'Parking?', answer: 'Yes.', quote },
    ]);
    const [good, wrong, plain] = o.drafts;
    const notHours = await o.client.post(`/api/knowledge/drafts/${plain!.id}/approve`, { useForCallHandling: true });
    expect(notHours.status).toBe(400);
    expect(notHours.body.message).toBe('Only opening hours read from your website can be used for Call Handling.');
    const refused = await o.client.post(`/api/knowledge/drafts/${wrong!.id}/approve`, { useForCallHandling: true });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe('Wednesday: closing time 09:00 must be after opening time 18:00.');
    expect(await kbOf(o.id)).toBeNull(); // nothing written by a refused approval
    expect((await o.client.post(`/api/knowledge/drafts/${good!.id}/approve`, { useForCallHandling: true })).status).toBe(200);
    const ch = (await o.client.get('/api/user/call-handling')).body.callHandling;
    expect(ch.hours).toEqual(week);
    expect(ch.hoursEnabled).toBe(true);
  });

  it('answers 404 for another owner\'s draft and 409 for one already decided', async () => {
    const o = await ownerWithDrafts(undefined, [{ kind: 'new', question: 'Q1?', answer: 'A1.', quote }]);
    const other = await owner();
    const id = o.drafts[0]!.id;
    expect((await other.client.post(`/api/knowledge/drafts/${id}/approve`, {})).status).toBe(404);
    expect((await other.client.post(`/api/knowledge/drafts/${id}/reject`)).status).toBe(404);
    expect((await o.client.post(`/api/knowledge/drafts/${id}/reject`)).body).toEqual({ knowledgeBase: '', drafts: [], decided: 1 });
    const again = await o.client.post(`/api/knowledge/drafts/${id}/approve`, {});
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('This draft has already been approved or rejected.');
    expect((await o.client.post(`/api/knowledge/drafts/${id}/reject`)).status).toBe(409);
    expect((await o.client.post('/api/knowledge/drafts/abc/approve', {})).status).toBe(400);
    expect(await kbOf(o.id)).toBeNull();
  });

  it('approves all pending drafts at once, and rejects all at once', async () => {
    const o = await ownerWithDrafts('Q: Old?\nA: Yes.', [
      { kind: 'new', question: 'Q1?', answer: 'A1.', quote },
      { kind: 'areas', question: 'Q2?', answer: 'A2.', quote },
    ]);
    const all = await o.client.post('/api/knowledge/drafts/approve-all');
    expect(all.status).toBe(200);
    expect(all.body).toEqual({ knowledgeBase: 'Q: Old?\nA: Yes.\n\nQ: Q1?\nA: A1.\n\nQ: Q2?\nA: A2.', drafts: [], decided: 2 });
    expect((await o.client.post('/api/knowledge/drafts/approve-all')).body.decided).toBe(0);

    const p = await ownerWithDrafts(undefined, [{ kind: 'new', question: 'Q3?', answer: 'A3.', quote }, { kind: 'new', question: 'Q4?', answer: 'A4.', quote }]);
    const none = await p.client.post('/api/knowledge/drafts/reject-all');
    expect(none.body).toEqual({ knowledgeBase: '', drafts: [], decided: 2 });
    expect(await kbOf(p.id)).toBeNull();
  });
});

describe('forgetting the site, and the owner\'s export', () => {
  it('DELETE forgets the site, its pages and pending drafts (past crawls still count for the day); approved entries stay in the knowledge base; the export held them before', async () => {
    const o = await ownerWithDrafts(undefined, [{ kind: 'new', question: 'Kept?', answer: 'Yes.', quote }, { kind: 'new', question: 'Pending?', answer: 'Yes.', quote }]);
    await o.client.post(`/api/knowledge/drafts/${o.drafts[0]!.id}/approve`, {});
    const exported = (await o.client.get('/api/user/export')).body.website;
    expect(exported.site.url).toBe('https://www.example.co.uk/');
    expect(exported.crawls).toHaveLength(1);
    expect(exported.pages).toEqual([expect.objectContaining({ url: `https://www.example.co.uk/p${o.id}` })]);
    expect(exported.drafts.map((d: { question: string; state: string }) => [d.question, d.state])).toEqual([['Kept?', 'approved'], ['Pending?', 'pending']]);

    const res = await o.client.delete('/api/knowledge/website');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ site: null, crawl: null, drafts: [], crawlsLeftToday: 2 });
    expect(await kbOf(o.id)).toBe('Q: Kept?\nA: Yes.');
    const { websitePages } = tablesOf(server.database.db);
    expect(await server.database.db.select().from(websitePages).where(eq(websitePages.userId, o.id))).toEqual([]);
    const after = (await o.client.get('/api/user/export')).body.website;
    expect(after).toMatchObject({ site: null, pages: [] });
    expect(after.crawls).toHaveLength(1);
    expect(after.drafts.map((d: { state: string }) => d.state)).toEqual(['approved']);
  });
});
