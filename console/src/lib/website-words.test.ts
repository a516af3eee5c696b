import { describe, expect, it } from 'vitest';
import type { ApiWebsiteCrawl } from '../../../contract/website';
import { crawlCounts, crawlFailure, crawlProgress, startLabel, websiteSummary } from './website-words';

const crawl = (over: Partial<ApiWebsiteCrawl> = {}): ApiWebsiteCrawl => ({
  id: 1,
  url: 'https://example.co.uk/',
  state: 'done',
  trigger: 'owner',
  pagesRead: 12,
  pagesUnchanged: 0,
  draftsMade: 5,
  draftsDropped: 0,
  problems: [],
  error: null,
  startedAt: null,
  finishedAt: null,
  createdAt: '2026-12-02T10:00:00.000Z',
  ...over,
});

describe('the website card in words', () => {
  it('learns the first time and checks after', () => {
    expect(startLabel(null)).toBe('Learn from my website');
    expect(startLabel(crawl())).toBe('Check my website now');
  });

  it('says a queued crawl is waiting its turn and a running one how far it got', () => {
    expect(crawlProgress(crawl({ state: 'queued' }))).toBe("Waiting for another business's crawl to finish");
    expect(crawlProgress(crawl({ state: 'running', pagesRead: 1, draftsMade: 0 }))).toBe('Reading your website: 1 page read, 0 drafts made');
  });

  it('counts drafts made, dropped and unchanged pages, leaving out the zeros', () => {
    expect(crawlCounts(crawl())).toBe('12 pages read: 5 drafts made.');
    expect(crawlCounts(crawl({ draftsMade: 1, draftsDropped: 2, pagesUnchanged: 1 }))).toBe('12 pages read: 1 draft made, 2 dropped for facts not on the page, 1 page unchanged since the last check.');
  });

  it('puts a failure in plain words, the server’s own when it gave them', () => {
    expect(crawlFailure(crawl({ state: 'failed', error: 'The site refused us (403).' }))).toBe('We could not read your website. The site refused us (403).');
    expect(crawlFailure(crawl({ state: 'failed' }))).toMatch(/check the address/);
  });

  it('sums the card up for a phone', () => {
    expect(websiteSummary(null, 0)).toBe('Not set up');
    expect(websiteSummary(crawl({ state: 'running' }), 3)).toBe('Reading your website');
    expect(websiteSummary(crawl(), 1)).toBe('1 draft to review');
    expect(websiteSummary(crawl({ state: 'failed' }), 0)).toBe('The last check failed');
  });
});
