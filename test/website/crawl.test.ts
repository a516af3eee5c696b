// The crawler against the fixture plumber's site on loopback, through the real address guard
// (loopback opened only by the test seam), asserted by what was read and what was reported.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WEBSITE_LIMITS } from '../../contract/rules.js';
import { crawlSite } from '../../core/website/crawl/crawl-site.js';
import { PROBLEM, STOPPED } from '../../core/website/crawl/problems.js';
import type { CrawlOptions, CrawlOutcome, SitePage } from '../../core/website/parts.js';
import { HOURS_SENTENCE, pricesPage, startFixtureSite, type FixtureSite } from './fixture-site.js';

let site: FixtureSite;
beforeEach(async () => { site = await startFixtureSite(); });
afterEach(async () => { await site.close(); });

async function crawl(start: string, opts: Partial<CrawlOptions> = {}): Promise<{ pages: SitePage[]; outcome: CrawlOutcome }> {
  const pages: SitePage[] = [];
  const outcome = await crawlSite(start, { guard: { allowLoopback: true }, pauseMs: 0, deadline: Date.now() + 5 * 60_000, onPage: async (p) => { pages.push(p); }, ...opts });
  return { pages, outcome };
}
const textOf = (pages: SitePage[], path: string) => pages.find((p) => new URL(p.url).pathname === path)?.text;
const problemAt = (outcome: CrawlOutcome, path: string) => outcome.problems.filter((p) => new URL(p.url).pathname === path).map((p) => p.problem);

describe('reading the plumber’s site', () => {
  it('reads the pages with prices, areas, hours and answers, each once, and says what it could not read', async () => {
    const { pages, outcome } = await crawl(site.url, { userAgent: 'CallKeeper-SiteReader/1 (+https://box.example)' });

    expect(textOf(pages, '/prices')).toContain('A boiler service costs £85, including the flue gas check and a written report.');
    expect(textOf(pages, '/prices')).toContain('The call-out charge is £60, which includes the first half hour of work.');
    expect(textOf(pages, '/areas')).toContain('We cover Leeds, Horsforth, Headingley and Otley.');
    expect(textOf(pages, '/faq')).toContain('Please have your boiler\'s make and model ready, and clear the area around it before we arrive.');
    // The hours sit in the home page's footer, which Readability alone would drop.
    expect(textOf(pages, '/')).toContain(HOURS_SENTENCE);
    // Paragraphs stay lines: the drafter finds the sentence it quotes on a line of its own.
    expect(textOf(pages, '/prices')!.split('\n')).toContain('The call-out charge is £60, which includes the first half hour of work.');
    expect(pages.find((p) => new URL(p.url).pathname === '/prices')!.title).toBe('Prices | Hartley Plumbing');
    // /about is linked from nowhere: only the sitemap (an index, one level deep) names it.
    expect(textOf(pages, '/about')).toContain('James Hartley started the business in 1998');
    expect(site.requests('/sitemap.xml')).toBe(1);
    expect(site.requests('/sitemap-pages.xml')).toBe(1);

    // /prices, /prices#boilers and /prices?utm_source=home are one page, read once.
    expect(site.requests('/prices')).toBe(1);
    expect(pages.filter((p) => new URL(p.url).pathname === '/prices')).toHaveLength(1);
    expect(pages.every((p) => new URL(p.url).host === new URL(site.url).host)).toBe(true);

    // The disallowed page was left alone, and said so.
    expect(site.requests('/staff-only')).toBe(0);
    expect(problemAt(outcome, '/staff-only')).toEqual([PROBLEM.robots]);
    // The redirect to another host was not followed.
    expect(site.otherHostRequests()).toBe(0);
    expect(problemAt(outcome, '/old-site')).toEqual([PROBLEM.offSite(new URL(site.otherHostUrl).host)]);
    // The 10 MB page: its top read, the cut reported.
    expect(textOf(pages, '/big')).toContain('James Hartley fixed his first boiler in Horsforth in 1998');
    expect(problemAt(outcome, '/big')).toEqual([PROBLEM.cut(2)]);
    // The script-only page.
    expect(textOf(pages, '/book-online')).toBeUndefined();
    expect(problemAt(outcome, '/book-online')).toEqual([PROBLEM.needsJavaScript]);
    // A PDF by its extension is never asked for; one by its content-type is not read.
    expect(site.requests('/brochure.pdf')).toBe(0);
    expect(problemAt(outcome, '/brochure.pdf')).toEqual([PROBLEM.pdf]);
    expect(problemAt(outcome, '/price-list')).toEqual([PROBLEM.pdf]);
    expect(problemAt(outcome, '/old-page')).toEqual([PROBLEM.notFound(404)]);
    expect(outcome.stoppedEarly).toBeNull();

    // Every request named the product, and robots.txt was asked for before any page.
    expect(site.log()[0]!.path).toBe('/robots.txt');
    expect(new Set(site.log().map((r) => r.userAgent))).toEqual(new Set(['CallKeeper-SiteReader/1 (+https://box.example)']));
  });

  it('sees a changed price on the second crawl', async () => {
    expect(textOf((await crawl(site.url)).pages, '/prices')).toContain('A boiler service costs £85');
    site.set('/prices', pricesPage('£95'));
    const again = textOf((await crawl(site.url)).pages, '/prices');
    expect(again).toContain('A boiler service costs £95');
    expect(again).not.toContain('£85');
  });

  it('reads an address typed without a scheme (https tried first, http when https cannot connect)', async () => {
    const { pages } = await crawl(site.url.replace('http://', ''));
    expect(textOf(pages, '/areas')).toContain('Horsforth');
    expect(pages[0]!.url).toBe(`${site.url}/`);
  });

  it('keys pages by the name the site serves: www. sent to the bare name, each page asked for once, robots.txt still obeyed', async () => {
    await site.close();
    site = await startFixtureSite({ canonicalHost: 'hartley.test' });
    const bare = `hartley.test:${new URL(site.url).port}`;
    // Both names lead to the fixture on loopback (the guard's resolver seam plays DNS).
    const resolver = async (host: string) => (host === 'hartley.test' || host === 'www.hartley.test' ? [{ address: '127.0.0.1', family: 4 as const }] : []);
    const { pages } = await crawl(`www.${bare}`, { guard: { allowLoopback: true, resolver } });
    expect(textOf(pages, '/prices')).toContain('A boiler service costs £85');
    expect(textOf(pages, '/')).toContain(HOURS_SENTENCE);
    expect(new Set(pages.map((p) => new URL(p.url).host))).toEqual(new Set([bare]));
    // Only robots.txt was asked for under www.; after its redirect every request named the bare host.
    expect(site.log().filter((r) => r.host !== bare).map((r) => r.path)).toEqual(['/robots.txt']);
    expect(site.requests('/prices')).toBe(1);
    expect(site.requests('/staff-only')).toBe(0);
  });

  it('asks one thing at a time, with the pause between two requests', async () => {
    const pauseMs = 40;
    await crawl(site.url, { pauseMs });
    expect(site.mostAtOnce()).toBe(1);
    const log = site.log();
    expect(log.length).toBeGreaterThanOrEqual(10);
    // A lower bound only: a loaded machine makes the gaps longer, never shorter (1 ms for the clock's rounding).
    const gaps = log.slice(1).map((r, i) => r.at - log[i]!.at);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(pauseMs - 1);
  });

  it('stops at the deadline with what it has, and says why', async () => {
    let read = 0;
    const outcome = await crawlSite(site.url, {
      guard: { allowLoopback: true },
      pauseMs: 0,
      // Past the deadline once two pages are read.
      get deadline() { return read >= 2 ? 0 : Number.MAX_SAFE_INTEGER; },
      onPage: async () => { read++; },
    });
    expect(read).toBe(2);
    expect(outcome.stoppedEarly).toBe(STOPPED.timeLimit(2));
  });

  it(`reads at most ${WEBSITE_LIMITS.maxPages} pages, and says the rest was left`, async () => {
    await site.close();
    site = await startFixtureSite({ extraPages: WEBSITE_LIMITS.maxPages + 20 });
    const { pages, outcome } = await crawl(site.url);
    const pageRequests = site.log().filter((r) => !/^\/(robots\.txt|sitemap.*\.xml)$/.test(r.path)).length;
    expect(pageRequests).toBe(WEBSITE_LIMITS.maxPages);
    expect(pages.length).toBeLessThanOrEqual(WEBSITE_LIMITS.maxPages);
    expect(outcome.stoppedEarly).toBe(STOPPED.pageLimit(WEBSITE_LIMITS.maxPages));
  });
});

describe('when the start page cannot be read, the crawl fails with a sentence for the owner', () => {
  it('the site refuses it', async () => {
    site.answer('/', { status: 403, body: 'Forbidden' });
    await expect(crawl(site.url)).rejects.toThrow(`Your website could not be read: ${PROBLEM.refused(403)}`);
  });

  it('robots.txt asks robots to leave the whole site alone (and nothing else is fetched)', async () => {
    site.answer('/robots.txt', { body: 'User-agent: CallKeeper-SiteReader\nDisallow: /\n', contentType: 'text/plain' });
    await expect(crawl(site.url)).rejects.toThrow(PROBLEM.robots);
    expect(site.log().map((r) => r.path)).toEqual(expect.not.arrayContaining(['/', '/prices']));
  });

  it('without the test seam, the guard refuses loopback before any request', async () => {
    await expect(crawl(site.url, { guard: {} })).rejects.toThrow(`Your website could not be read: ${PROBLEM.notAllowed}`);
    expect(site.log()).toEqual([]);
  });
});
