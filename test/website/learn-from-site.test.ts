// Issue 55 joined end to end: the real crawler reads the fixture site on loopback (the guard's
// test seam), the real drafter asks the Ollama double (the only stand-in) through the LLM pool,
// code drops the invented fact, the drafts wait for the owner, approving writes the knowledge base,
// and a second crawl after a price change proposes a change while unchanged pages cost no model call.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Lease } from '../../models/pool/engine-pool.js';
import { activeCustomer } from '../helpers/accounts.js';
import type { ApiClient } from '../helpers/client.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { startOllamaDouble, type OllamaDouble } from '../doubles/ollama/server.js';
import { HOURS_SENTENCE, pricesPage, startFixtureSite, type FixtureSite } from './fixture-site.js';
import { AREAS, BOILER_85, BOILER_95, CALL_OUT, draftedPages, fixtureModelReply, PARKING } from './fixture-site-model.js';
import { crawlEnded } from './website-parts.js';

let ollama: OllamaDouble;
let site: FixtureSite;
let server: TestServer | undefined;
beforeAll(async () => {
  ollama = await startOllamaDouble({ models: ['llama3.2:3b'] });
});
afterAll(async () => {
  await ollama?.close();
});
afterEach(async () => {
  await server?.close();
  await site?.close();
  server = undefined;
});

async function start() {
  Object.assign(ollama, { script: [], always: null, requests: [] });
  ollama.replier = fixtureModelReply;
  site = await startFixtureSite();
  server = await startTestServer({
    // One model slot: a live request and the crawl's drafting compete for it.
    env: { OLLAMA_URL: ollama.url, OLLAMA_MODEL: 'llama3.2:3b', OLLAMA_SLOTS: '1', WEBSITE_CRAWL_PAUSE_MS: '1', WEBSITE_DAILY_CRAWLS: '5' },
    website: { guard: { allowLoopback: true }, pollMs: 50 },
    background: { website: true },
  });
  const { client, user } = await activeCustomer(server);
  expect((await client.patch('/api/user/settings', { aiMode: 'agent' })).status).toBe(200);
  const put = await client.request('PUT', '/api/knowledge/website', { url: site.url });
  expect(put.status, put.text).toBe(200);
  return { client, userId: user.id, server };
}

const knowledgeBase = async (client: ApiClient) => (await client.get('/api/auth/me')).body.user.knowledgeBase as string | null;
const until = <T>(check: () => T | Promise<T>) => vi.waitFor(check, { timeout: 60_000, interval: 20 });

describe('learning from the fixture site, the parts joined', () => {
  it('crawls, drafts with the model, drops the invented price, reports what it could not read; approving writes the knowledge base; a price change is proposed, unchanged pages cost no model call', async () => {
    const { client } = await start();
    const started = await client.post('/api/knowledge/website/crawl');
    expect(started.status).toBe(202);
    const first = await crawlEnded(client);
    const at = (path: string) => `${site.url}${path}`;

    expect(first.crawl).toMatchObject({ state: 'done', draftsDropped: 1, pagesUnchanged: 0 });
    // Drafts from the prices, areas and FAQ pages (and the home page's hours), each citing its page and sentence.
    const byQuestion = Object.fromEntries(first.drafts.map((d: { question: string }) => [d.question, d]));
    expect(Object.keys(byQuestion).sort()).toEqual(['Do you charge a call-out fee?', 'Do you need parking?', 'How much is a boiler service?', 'When are you open?', 'Which areas do you cover?']);
    expect(byQuestion['How much is a boiler service?']).toMatchObject({ kind: 'new', sourceUrl: at('/prices'), quote: BOILER_85 });
    expect(byQuestion['Do you charge a call-out fee?']).toMatchObject({ kind: 'new', sourceUrl: at('/prices'), quote: CALL_OUT });
    expect(byQuestion['Which areas do you cover?']).toMatchObject({ kind: 'areas', sourceUrl: at('/areas'), quote: AREAS });
    expect(byQuestion['Do you need parking?']).toMatchObject({ kind: 'new', sourceUrl: at('/faq'), quote: PARKING });
    expect(byQuestion['When are you open?']).toMatchObject({ kind: 'hours', sourceUrl: at('/'), quote: HOURS_SENTENCE });
    expect(first.drafts.some((d: { answer: string }) => d.answer.includes('£65'))).toBe(false);
    expect(first.crawl.draftsMade).toBe(5);

    // robots.txt obeyed, the other host never reached, every page asked for once, one request at a time.
    expect(site.requests('/staff-only')).toBe(0);
    expect(site.otherHostRequests()).toBe(0);
    expect(site.mostAtOnce()).toBe(1);
    for (const path of ['/', '/prices', '/areas', '/faq', '/about']) expect(site.requests(path), path).toBe(1);
    // One model call per page with text: the drafter ran on every page read.
    const pagesDrafted = draftedPages(ollama);
    expect(new Set(pagesDrafted).size).toBe(pagesDrafted.length);
    for (const path of ['/', '/prices', '/areas', '/faq', '/about']) expect(pagesDrafted).toContain(at(path));
    expect(first.crawl.pagesRead).toBe(pagesDrafted.length);

    // What it could not read, in plain words, with the page's address.
    const problem = (path: string) => first.crawl.problems.find((p: { url: string }) => p.url === at(path))?.problem;
    expect(problem('/book-online')).toMatch(/needs JavaScript/);
    expect(problem('/brochure.pdf')).toBe('A PDF: skipped.');
    expect(problem('/price-list')).toBe('A PDF: skipped.');
    expect(problem('/big')).toMatch(/only its first 2 MB were read/);
    expect(problem('/old-site')).toBe(`This page sends visitors to another site (${new URL(site.otherHostUrl).host}): not followed.`);
    expect(problem('/staff-only')).toMatch(/robots\.txt/);

    // Nothing reaches the knowledge base until approved; two approved, one rejected.
    expect(await knowledgeBase(client)).toBeFalsy();
    const id = (q: string) => byQuestion[q].id as number;
    expect((await client.post(`/api/knowledge/drafts/${id('How much is a boiler service?')}/approve`, {})).status).toBe(200);
    expect((await client.post(`/api/knowledge/drafts/${id('Which areas do you cover?')}/approve`, {})).status).toBe(200);
    expect((await client.post(`/api/knowledge/drafts/${id('Do you need parking?')}/reject`)).status).toBe(200);
    const approvedKb = await knowledgeBase(client);
    expect(approvedKb).toBe(
      'Q: How much is a boiler service?\nA: A boiler service is £85, with the flue gas check and a written report.\n\nQ: Which areas do you cover?\nA: We cover Leeds, Horsforth, Headingley and Otley.',
    );

    // The site's price changes; the second crawl drafts only the changed page.
    site.set('/prices', pricesPage('£95'));
    ollama.requests.length = 0;
    expect((await client.post('/api/knowledge/website/crawl')).status).toBe(202);
    await until(async () => expect((await client.get('/api/knowledge/website')).body.crawl.id).not.toBe(first.crawl.id));
    const second = await crawlEnded(client);
    expect(second.crawl).toMatchObject({ state: 'done', pagesRead: first.crawl.pagesRead, pagesUnchanged: first.crawl.pagesRead - 1 });
    expect(draftedPages(ollama)).toEqual([at('/prices')]);
    const change = second.drafts.find((d: { kind: string }) => d.kind === 'change');
    expect(change).toMatchObject({
      question: 'How much is a boiler service?',
      answer: 'A boiler service is £95, with the flue gas check and a written report.',
      quote: BOILER_95,
      sourceUrl: at('/prices'),
      currentQuestion: 'How much is a boiler service?',
      currentAnswer: 'A boiler service is £85, with the flue gas check and a written report.',
    });
    // The call-out draft still pending is not offered twice; the rejected parking draft not again.
    expect(second.drafts.filter((d: { question: string }) => d.question === 'Do you charge a call-out fee?')).toHaveLength(1);
    expect(second.drafts.some((d: { question: string }) => d.question === 'Do you need parking?')).toBe(false);
    expect(await knowledgeBase(client)).toBe(approvedKb);

    expect((await client.post(`/api/knowledge/drafts/${change.id}/approve`, {})).status).toBe(200);
    const changedKb = await knowledgeBase(client);
    expect(changedKb).toContain('A: A boiler service is £95, with the flue gas check and a written report.');
    expect(changedKb).not.toContain('£85');
    expect(changedKb).toContain('A: We cover Leeds, Horsforth, Headingley and Otley.');
  }, 180_000);

  it('refuses a second crawl while one runs (409), and drafts at background priority: a live request waiting for the model is served first', async () => {
    const { client, server: s } = await start();
    const pool = s.services.agentEngines.pools.llm;
    let letGo!: () => void;
    ollama.script.push({ until: new Promise<void>((resolve) => (letGo = resolve)) });

    expect((await client.post('/api/knowledge/website/crawl')).status).toBe(202);
    // The crawl's first model call holds the pool's one slot, held by the double.
    await until(() => expect(ollama.requests).toHaveLength(1));
    expect((await client.get('/api/knowledge/website')).body.crawl.state).toBe('running');
    const again = await client.post('/api/knowledge/website/crawl');
    expect(again.status).toBe(409);
    expect(again.body.error ?? again.body.message).toBe('Your website is already being read.');

    // A caller's turn asks for the model while the crawl holds it: it waits, live.
    let live: Lease | undefined;
    const liveAsked = pool.acquire('live').then((l) => (live = l));
    expect(pool.stats().waiting.live).toBe(1);
    letGo();
    await liveAsked;
    // The crawl's next page now waits behind the live request, however long the call takes.
    await until(() => expect(pool.stats().waiting.background).toBe(1));
    expect(ollama.requests).toHaveLength(1);
    expect((await client.get('/api/knowledge/website')).body.crawl.state).toBe('running');
    live!.done();
    const view = await crawlEnded(client);
    expect(view.crawl.state).toBe('done');
    expect(pool.stats().waited.background.count).toBeGreaterThanOrEqual(1);
  }, 180_000);
});
