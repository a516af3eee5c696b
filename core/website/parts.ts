// The two parts a crawl is made of, as the website service (core/website/service.ts) takes them:
// the crawler reads the owner's site page by page (core/website/crawl/), the drafter turns one
// page into knowledge-base drafts with the local model (core/website/draft/). Typed here once so
// each side is built and tested on its own, and the service is handed the real ones by the app.
import type { CallHandlingSettings } from '../../contract/call-handling.js';
import type { KbDraftKind } from '../../contract/enums.js';
import type { GuardOptions } from '../webhooks/address-guard.js';

/** One page of the owner's site as read: its main text, extracted from the HTML. */
export interface SitePage {
  url: string;
  title: string;
  text: string;
}

/** Something the crawl could not read, in a sentence for the owner ("needs JavaScript", "a PDF: skipped"). */
export interface CrawlProblem {
  url: string;
  problem: string;
}

export interface CrawlOptions {
  /** The SSRF guard every request and every redirect goes through (tests open loopback here). */
  guard: GuardOptions;
  /** Between two requests to the site (WEBSITE_CRAWL_PAUSE_MS). */
  pauseMs: number;
  /** Epoch ms past which the crawl stops with what it has (and says so). */
  deadline: number;
  signal?: AbortSignal;
  /** The name the crawl gives itself to the site (siteReaderUserAgent in crawl/site-rules.ts, with the box's PUBLIC_URL); robots.txt is matched on it. */
  userAgent?: string;
  /** Called for each page read, in order; the crawl waits for it (drafting) before the next request. */
  onPage(page: SitePage): Promise<void>;
}

export interface CrawlOutcome {
  problems: CrawlProblem[];
  /** Why the crawl ended before reading the whole site (page limit, time limit), in words; null = it read all it could. */
  stoppedEarly: string | null;
}

/** Reads the site from `startUrl`: that host and its www. only, robots.txt obeyed, the sitemap used. Throws only when nothing could be read (the site refused, the address is not allowed), with a sentence for the owner. */
export type CrawlSite = (startUrl: string, opts: CrawlOptions) => Promise<CrawlOutcome>;

/** A draft as the drafter proposes it; the service stores it pending. */
export interface PageDraft {
  kind: KbDraftKind;
  question: string;
  answer: string;
  /** The page's own sentence the draft came from (every fact of the draft is in it). */
  quote: string;
  /** A 'change': the owner's entry as it stands. */
  currentQuestion?: string;
  currentAnswer?: string;
  /** An 'hours' draft: the hours as code read them from the quote; null = not readable. */
  hours?: CallHandlingSettings['hours'] | null;
}

export interface PageDrafts {
  drafts: PageDraft[];
  /** Drafts the code dropped: a fact not in the sentence they cited, or a quote not on the page. */
  dropped: number;
}

/** Drafts from one page, against the owner's knowledge base as it stands (Q:/A: text, SPEC). */
export type DraftPage = (page: SitePage, knowledgeBase: string | null, signal?: AbortSignal) => Promise<PageDrafts>;
