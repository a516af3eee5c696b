import { setTimeout as sleep } from 'node:timers/promises';
import { WEBSITE_LIMITS } from '../../../contract/rules.js';
import { guardedRequest, type GuardedAnswer } from '../../net/guarded-fetch.js';
import { RefusedAddressError } from '../../webhooks/address-guard.js';
import type { CrawlOptions, CrawlProblem, CrawlSite } from '../parts.js';
import { PROBLEM, startPageUnreadable, STOPPED } from './problems.js';
import { ALLOW_ALL, DISALLOW_ALL, robotsRules, type RobotsRules } from './robots.js';
import { notAPageByExtension, notAPageByType, onSite, pageKey, siteReaderUserAgent, startAddress } from './site-rules.js';

// Reads the owner's site: robots.txt first (obeyed), then the sitemap's pages, then the links
// found in pages, breadth-first. One request at a time with a pause between two, every request
// through the box's guarded transport (core/net/guarded-fetch.ts), its redirects judged here so
// a redirect off the site is reported rather than followed. docs/website.md, "Reading the site".

const MAX_REDIRECTS = 5;
/** A sitemap index may name many sitemaps; the pages they list are bounded by maxPages anyway. */
const MAX_SITEMAPS = 10;
const SUBJECT = 'the website';
const MEGABYTES = Math.round(WEBSITE_LIMITS.maxPageBytes / 1024 / 1024);

type Fetched =
  | { kind: 'answer'; answer: GuardedAnswer }
  | { kind: 'failed'; problem: string; couldNotConnect: boolean }
  | { kind: 'deadline' };

type Followed = Fetched | { kind: 'elsewhere'; problem: string } | { kind: 'seen' };

const isTimeout = (err: unknown) => err instanceof Error && (err.name === 'TimeoutError' || (err.cause instanceof Error && err.cause.name === 'TimeoutError'));

/** One site's requests: the pause between two, the crawl's deadline, each request's own bound. */
class SiteRequests {
  private lastEnded = 0;
  constructor(private readonly opts: CrawlOptions, private readonly userAgent: string) {}

  async get(url: URL, wantBody: (status: number, headers: Headers) => boolean): Promise<Fetched> {
    const wait = this.lastEnded + this.opts.pauseMs - Date.now();
    if (this.lastEnded && wait > 0) await sleep(wait, undefined, { signal: this.opts.signal });
    const left = this.opts.deadline - Date.now();
    if (left <= 0) return { kind: 'deadline' };
    try {
      const answer = await guardedRequest(url, { method: 'GET', headers: new Headers({ 'user-agent': this.userAgent, accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.5' }) }, {
        guard: this.opts.guard,
        maxBytes: WEBSITE_LIMITS.maxPageBytes,
        oversize: 'cut',
        subject: SUBJECT,
        redirect: 'manual',
        timeoutMs: Math.min(WEBSITE_LIMITS.requestMs, left),
        signal: this.opts.signal,
        wantBody,
      });
      return { kind: 'answer', answer };
    } catch (err) {
      if (this.opts.signal?.aborted) throw err;
      if (err instanceof RefusedAddressError) return { kind: 'failed', problem: PROBLEM.notAllowed, couldNotConnect: false };
      return { kind: 'failed', problem: isTimeout(err) ? PROBLEM.timedOut : PROBLEM.unreachable, couldNotConnect: true };
    } finally {
      this.lastEnded = Date.now();
    }
  }
}

const isPageAnswer = (status: number, headers: Headers) => status >= 200 && status < 300 && notAPageByType(headers.get('content-type')) === null;
const isOk = (status: number) => status >= 200 && status < 300;

function statusProblem(status: number): string {
  if (status === 404 || status === 410) return PROBLEM.notFound(status);
  if (status >= 500) return PROBLEM.serverError(status);
  return PROBLEM.refused(status);
}

function decoded(answer: GuardedAnswer): string {
  const charset = /charset=["']?([\w-]+)/i.exec(answer.headers.get('content-type') ?? '')?.[1];
  try {
    return new TextDecoder(charset ?? 'utf-8').decode(answer.body);
  } catch {
    return new TextDecoder('utf-8').decode(answer.body);
  }
}

export const crawlSite: CrawlSite = async (startUrl, opts) => {
  let site = startAddress(startUrl);
  if (!site) throw new Error(startPageUnreadable('that is not a website address.'));
  // The HTML readers (linkedom, Readability: ~0.15 s of CPU to import) load on the first crawl,
  // not with the app, which every start and every test server would pay for.
  const [{ readPage }, { sitemapEntries }] = await Promise.all([import('./main-text.js'), import('./sitemap.js')]);
  const userAgent = opts.userAgent ?? siteReaderUserAgent();
  const requests = new SiteRequests(opts, userAgent);
  const problems: CrawlProblem[] = [];
  const reported = new Set<string>();
  const report = (url: URL | string, problem: string) => {
    const key = `${String(url)}\n${problem}`;
    if (reported.has(key)) return;
    reported.add(key);
    problems.push({ url: String(url), problem });
  };
  const visited = new Set<string>();
  let robots: RobotsRules = ALLOW_ALL;

  /** A GET with its redirects followed while they stay on the site (and robots.txt allows where they lead). */
  const follow = async (first: URL, wantBody: (status: number, headers: Headers) => boolean, obeyRobots: boolean): Promise<Followed> => {
    let url = first;
    for (let hops = 0; ; hops++) {
      const fetched = await requests.get(url, wantBody);
      if (fetched.kind !== 'answer') return fetched;
      const { status, headers } = fetched.answer;
      const location = headers.get('location');
      if (status < 300 || status >= 400 || !location) return fetched;
      if (hops >= MAX_REDIRECTS) return { kind: 'elsewhere', problem: PROBLEM.tooManyRedirects };
      let to: URL;
      try {
        to = new URL(location, url);
      } catch {
        return { kind: 'elsewhere', problem: PROBLEM.refused(status) };
      }
      const key = site && pageKey(to, site);
      if (!key) return { kind: 'elsewhere', problem: PROBLEM.offSite(to.host) };
      // A redirect that only changes the spelling (www., https) is this page, not one already read.
      if (obeyRobots && pageKey(url, site!)?.href !== key.href) {
        if (visited.has(key.href)) return { kind: 'seen' };
        visited.add(key.href);
        if (!robots.allowed(key)) return { kind: 'elsewhere', problem: PROBLEM.robots };
      }
      url = to;
    }
  };

  // https first, whatever was typed; http only when https cannot connect at all.
  const robotsAt = (s: URL) => new URL('/robots.txt', s);
  let robotsAnswer = await follow(robotsAt(site), (status) => isOk(status), false);
  if (robotsAnswer.kind === 'failed' && robotsAnswer.couldNotConnect) {
    const plain = new URL(site);
    plain.protocol = 'http:';
    const overHttp = await follow(robotsAt(plain), (status) => isOk(status), false);
    if (overHttp.kind !== 'failed' || !overHttp.couldNotConnect) {
      site = plain;
      robotsAnswer = overHttp;
    }
  }
  if (robotsAnswer.kind === 'failed' || robotsAnswer.kind === 'deadline') throw new Error(startPageUnreadable(robotsAnswer.kind === 'failed' ? robotsAnswer.problem : PROBLEM.timedOut));
  // A site that sends www. to the bare name (or back, or http to https) does so for robots.txt
  // too: its pages are then keyed by the name it serves, so each is asked for without a redirect
  // and robots.txt's rules (which hold for their own origin only) apply to them.
  if (robotsAnswer.kind === 'answer' && onSite(robotsAnswer.answer.url, site)) {
    const served = robotsAnswer.answer.url;
    site = new URL(site);
    site.protocol = served.protocol;
    site.host = served.host;
  }
  const origin: URL = site;
  if (robotsAnswer.kind === 'answer') {
    const { status, body } = robotsAnswer.answer;
    if (isOk(status)) robots = robotsRules(robotsAnswer.answer.url, body.toString('utf8'), userAgent);
    else if (status >= 500) robots = DISALLOW_ALL;
  }

  const startKey = pageKey(origin, origin)!;
  const queue: URL[] = [startKey];
  const queued = new Set([startKey.href]);
  const enqueue = (url: URL) => {
    const key = pageKey(url, origin);
    if (!key || queued.has(key.href)) return;
    queued.add(key.href);
    const notPage = notAPageByExtension(key);
    if (notPage) report(key, PROBLEM[notPage]);
    else queue.push(key);
  };

  // The sitemap: those robots.txt names on this site, else /sitemap.xml; an index one level deep.
  const named = robots.sitemaps.flatMap((s) => { try { return [new URL(s, origin)]; } catch { return []; } }).filter((u) => onSite(u, origin));
  const sitemaps = named.length ? named : [new URL('/sitemap.xml', origin)];
  for (let i = 0, read = 0; i < sitemaps.length && read < MAX_SITEMAPS; i++, read++) {
    const got = await follow(sitemaps[i]!, (status) => isOk(status), false);
    if (got.kind === 'deadline') break;
    if (got.kind !== 'answer' || !isOk(got.answer.status)) continue;
    const entries = sitemapEntries(got.answer.body.toString('utf8'));
    // One level deep: the sitemaps an index names are read, an index inside those is not.
    if (i < (named.length || 1)) for (const s of entries.sitemaps) { try { const u = new URL(s, origin); if (onSite(u, origin)) sitemaps.push(u); } catch { /* not an address */ } }
    for (const p of entries.pages) { try { enqueue(new URL(p, origin)); } catch { /* not an address */ } }
  }

  let fetchedPages = 0;
  let readPages = 0;
  let stoppedEarly: string | null = null;
  while (queue.length) {
    const url = queue.shift()!;
    const isStart = url === startKey;
    const cannotRead = (problem: string) => {
      if (isStart) throw new Error(startPageUnreadable(problem));
      report(url, problem);
    };
    if (visited.has(url.href)) continue;
    visited.add(url.href);
    if (!robots.allowed(url)) {
      cannotRead(PROBLEM.robots);
      continue;
    }
    if (fetchedPages >= WEBSITE_LIMITS.maxPages) {
      stoppedEarly = STOPPED.pageLimit(WEBSITE_LIMITS.maxPages);
      break;
    }
    const got = await follow(url, isPageAnswer, true);
    if (got.kind === 'deadline') {
      if (isStart) throw new Error(startPageUnreadable(PROBLEM.timedOut));
      stoppedEarly = STOPPED.timeLimit(readPages);
      break;
    }
    fetchedPages++;
    if (got.kind === 'seen') continue;
    if (got.kind !== 'answer') {
      cannotRead(got.problem);
      continue;
    }
    const { answer } = got;
    if (!isOk(answer.status)) {
      cannotRead(statusProblem(answer.status));
      continue;
    }
    const at = pageKey(answer.url, origin) ?? url;
    visited.add(at.href);
    if (answer.bodySkipped) {
      cannotRead(PROBLEM[notAPageByType(answer.headers.get('content-type')) ?? 'file']);
      continue;
    }
    if (answer.cut) report(at, PROBLEM.cut(MEGABYTES));
    const page = readPage(decoded(answer));
    for (const href of page.links) {
      try {
        enqueue(new URL(href, answer.url));
      } catch {
        // An href that is no address ("javascript:", a typo) leads nowhere to read.
      }
    }
    if (page.needsJavaScript) report(at, PROBLEM.needsJavaScript);
    else if (!page.text) report(at, PROBLEM.empty);
    else {
      readPages++;
      await opts.onPage({ url: at.href, title: page.title, text: page.text });
    }
  }
  return { problems, stoppedEarly };
};
