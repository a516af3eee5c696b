// What the "Learn from my website" card says about a crawl, in the owner's words (issue 55).
import type { ApiWebsiteCrawl } from '../../../contract/website';

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** A crawl queued or running: it is read again until it is not. */
export const crawlActive = (crawl: ApiWebsiteCrawl | null | undefined): boolean => crawl?.state === 'queued' || crawl?.state === 'running';

/** The one start button: learning the first time, checking again after. */
export const startLabel = (crawl: ApiWebsiteCrawl | null | undefined): string => (crawl ? 'Check my website now' : 'Learn from my website');

/** The live progress line (read out by screen readers as it changes). */
export function crawlProgress(crawl: ApiWebsiteCrawl): string {
  if (crawl.state === 'queued') return "Waiting for another business's crawl to finish";
  return `Reading your website: ${plural(crawl.pagesRead, 'page')} read, ${plural(crawl.draftsMade, 'draft')} made`;
}

/** What a finished crawl did: drafts made, drafts dropped for a fact not on the page, pages that had not changed. */
export function crawlCounts(crawl: ApiWebsiteCrawl): string {
  const parts = [`${plural(crawl.draftsMade, 'draft')} made`];
  if (crawl.draftsDropped > 0) parts.push(`${crawl.draftsDropped} dropped for facts not on the page`);
  if (crawl.pagesUnchanged > 0) parts.push(`${plural(crawl.pagesUnchanged, 'page')} unchanged since the last check`);
  return `${plural(crawl.pagesRead, 'page')} read: ${parts.join(', ')}.`;
}

/** A failed crawl in plain words: the server's sentence when it gave one. */
export const crawlFailure = (crawl: ApiWebsiteCrawl): string => `We could not read your website. ${crawl.error ?? 'Please check the address and try again.'}`;

/** The closed card's one line on a phone. */
export function websiteSummary(crawl: ApiWebsiteCrawl | null | undefined, pending: number): string {
  if (crawlActive(crawl)) return crawl!.state === 'queued' ? 'Waiting to read your website' : 'Reading your website';
  if (pending > 0) return `${plural(pending, 'draft')} to review`;
  if (!crawl) return 'Not set up';
  return crawl.state === 'failed' ? 'The last check failed' : 'Up to date';
}
