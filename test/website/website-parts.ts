// In-test stand-ins for the crawler and the drafter (core/website/parts.ts), so the website
// service, its job and its routes are tested on their own; the real parts are joined to them
// by the lead's end-to-end test. Both record what they were asked.
import { expect, vi } from 'vitest';
import type { CrawlOptions, CrawlOutcome, CrawlSite, DraftPage, PageDraft, SitePage } from '../../core/website/parts.js';
import type { ApiClient } from '../helpers/client.js';

export interface ScriptedSite {
  crawlSite: CrawlSite;
  /** The pages the next crawls read, in order. */
  pages: SitePage[];
  outcome: CrawlOutcome;
  /** Thrown by the next crawls instead of reading (a site that refused). */
  refuse: string | null;
  /** While set, a crawl waits on it before reading (to hold a crawl open). */
  hold: Promise<void> | null;
  calls: Array<{ url: string; opts: CrawlOptions }>;
}

export function scriptedSite(pages: SitePage[] = []): ScriptedSite {
  const site: ScriptedSite = {
    pages,
    outcome: { problems: [], stoppedEarly: null },
    refuse: null,
    hold: null,
    calls: [],
    crawlSite: async (url, opts) => {
      site.calls.push({ url, opts });
      if (site.hold) await site.hold;
      if (site.refuse) throw new Error(site.refuse);
      for (const page of site.pages) await opts.onPage(page);
      return site.outcome;
    },
  };
  return site;
}

export interface ScriptedDrafter {
  draftPage: DraftPage;
  /** The drafts each page's URL yields. */
  drafts: Map<string, PageDraft[]>;
  dropped: number;
  calls: Array<{ url: string; knowledgeBase: string | null }>;
}

export function scriptedDrafter(): ScriptedDrafter {
  const d: ScriptedDrafter = {
    drafts: new Map(),
    dropped: 0,
    calls: [],
    draftPage: async (page, knowledgeBase) => {
      d.calls.push({ url: page.url, knowledgeBase });
      return { drafts: d.drafts.get(page.url) ?? [], dropped: d.dropped };
    },
  };
  return d;
}

export const page = (path: string, text: string): SitePage => ({ url: `https://www.example.co.uk${path}`, title: path, text });

export const put = (client: ApiClient, body: unknown) => client.request('PUT', '/api/knowledge/website', body);

/** Waits (generously: a loaded machine) until the owner's latest crawl has ended, and returns the view. */
export async function crawlEnded(client: ApiClient) {
  return vi.waitFor(async () => {
    const view = await client.get('/api/knowledge/website');
    expect(['done', 'failed']).toContain(view.body.crawl?.state);
    return view.body;
  }, { timeout: 60_000, interval: 50 });
}

/** A server's owner with a site saved and a crawl run to its end. */
export async function crawlOnce(client: ApiClient) {
  const started = await client.post('/api/knowledge/website/crawl');
  expect(started.status).toBe(202);
  return crawlEnded(client);
}
