import { createHash } from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { WEBSITE_LIMITS } from '../../contract/rules.js';
import type { Db } from '../db/client.js';
import { tablesOf } from '../db/schema.js';
import type { GuardOptions } from '../webhooks/address-guard.js';
import type { CrawlProblem, CrawlSite, DraftPage, PageDraft, PageDrafts, SitePage } from './parts.js';

// One crawl, as the website-crawl job runs it: the crawler reads the site page by page, each page
// whose text changed since the last crawl is drafted, and the crawl's row is kept current as it
// goes (the console polls its counters).

export interface CrawlRunDeps {
  db: Db;
  now: () => Date;
  crawlSite: CrawlSite;
  draftPage: DraftPage;
  guard: GuardOptions;
  pauseMs: number;
  /** The product's name and the box's PUBLIC_URL, so a site's owner can see who read it. */
  userAgent: string;
}

/** The site was forgotten (DELETE /api/knowledge/website) while its crawl ran, which ended the crawl: stop quietly. */
class CrawlForgotten extends Error {}

const pageHash = (text: string) => createHash('sha256').update(text).digest('hex');

const norm = (s: string) => s.replace(/\s+/g, ' ').trim().toLowerCase();
/** Two drafts that offer the same thing: the owner decided on one already (rejected) or has it before them (pending). */
const draftKey = (d: { kind: string; question: string; answer: string }) => `${d.kind}\n${norm(d.question)}\n${norm(d.answer)}`;

/**
 * Runs the crawl `crawlId` to its end: `done` with what it could not read, or `failed` with the
 * crawler's sentence. A crawl found `running` was left so by a process that died mid-crawl
 * (its job's lease ran out and the queue handed it on): it is read again from the start, which
 * costs little, since pages already drafted are unchanged by their hash.
 */
export async function runCrawl(deps: CrawlRunDeps, crawlId: number, signal: AbortSignal): Promise<void> {
  const { db, now } = deps;
  const { websiteCrawls, websitePages, users } = tablesOf(db);
  const crawl = (await db.select().from(websiteCrawls).where(eq(websiteCrawls.id, crawlId)).limit(1))[0];
  if (!crawl || (crawl.state !== 'queued' && crawl.state !== 'running')) return;
  const userId = crawl.userId;
  const started = now();
  const claimed = await db.update(websiteCrawls)
    .set({ state: 'running', startedAt: started, pagesRead: 0, pagesUnchanged: 0, draftsMade: 0, draftsDropped: 0, problems: [], error: null })
    .where(and(eq(websiteCrawls.id, crawlId), inArray(websiteCrawls.state, ['queued', 'running'])))
    .returning({ id: websiteCrawls.id });
  if (!claimed.length) return;

  const bump = async (counts: { pagesRead?: number; pagesUnchanged?: number; draftsMade?: number; draftsDropped?: number }) => {
    const set: Record<string, unknown> = {};
    for (const [k, n] of Object.entries(counts)) if (n) set[k] = sql`${websiteCrawls[k as keyof typeof counts]} + ${n}`;
    const rows = await db.update(websiteCrawls).set(set).where(and(eq(websiteCrawls.id, crawlId), eq(websiteCrawls.state, 'running'))).returning({ id: websiteCrawls.id });
    if (rows.length === 0) throw new CrawlForgotten();
  };

  const onPage = async (page: SitePage) => {
    const hash = pageHash(page.text);
    const known = (await db.select().from(websitePages).where(and(eq(websitePages.userId, userId), eq(websitePages.url, page.url))).limit(1))[0];
    if (known && known.contentHash === hash) {
      // Unchanged since it was last drafted: no model call (issue 55, "unchanged pages cost no model calls").
      await db.update(websitePages).set({ title: page.title, lastCrawlId: crawlId, updatedAt: now() }).where(eq(websitePages.id, known.id));
      await bump({ pagesRead: 1, pagesUnchanged: 1 });
      return;
    }
    // Forgotten meanwhile: no model call, and no draft pointing at a crawl that is gone.
    if (!(await db.select({ id: websiteCrawls.id }).from(websiteCrawls).where(and(eq(websiteCrawls.id, crawlId), eq(websiteCrawls.state, 'running'))).limit(1))[0]) throw new CrawlForgotten();
    const owner = (await db.select({ knowledgeBase: users.knowledgeBase }).from(users).where(eq(users.id, userId)).limit(1))[0];
    const { drafts, dropped }: PageDrafts = await deps.draftPage(page, owner?.knowledgeBase ?? null, signal);
    const made = await storeDrafts(db, userId, crawlId, page.url, drafts);
    // The page's hash is written only once its drafts are stored: a crawl cut short here drafts it again next time.
    const values = { title: page.title, contentHash: hash, lastCrawlId: crawlId, updatedAt: now() };
    await db.insert(websitePages).values({ userId, url: page.url, ...values }).onConflictDoUpdate({ target: [websitePages.userId, websitePages.url], set: values });
    await bump({ pagesRead: 1, draftsMade: made, draftsDropped: dropped });
  };

  try {
    const outcome = await deps.crawlSite(crawl.url, { guard: deps.guard, pauseMs: deps.pauseMs, userAgent: deps.userAgent, deadline: started.getTime() + WEBSITE_LIMITS.crawlMs, signal, onPage });
    const problems: CrawlProblem[] = outcome.stoppedEarly ? [...outcome.problems, { url: crawl.url, problem: outcome.stoppedEarly }] : outcome.problems;
    await db.update(websiteCrawls).set({ state: 'done', problems, finishedAt: now() }).where(and(eq(websiteCrawls.id, crawlId), eq(websiteCrawls.state, 'running')));
  } catch (err) {
    if (err instanceof CrawlForgotten) return;
    // The worker is stopping: the job goes back to the queue and the crawl is run again.
    if (signal.aborted) throw err;
    const error = err instanceof Error && err.message ? err.message : 'Your website could not be read.';
    await db.update(websiteCrawls).set({ state: 'failed', error, finishedAt: now() }).where(and(eq(websiteCrawls.id, crawlId), eq(websiteCrawls.state, 'running')));
  }
}

/** Stores a page's drafts pending, leaving out any the owner already has before them or rejected. Returns how many were stored. */
async function storeDrafts(db: Db, userId: number, crawlId: number, sourceUrl: string, drafts: PageDraft[]): Promise<number> {
  if (drafts.length === 0) return 0;
  const { kbDrafts } = tablesOf(db);
  const seen = new Set(
    (await db.select({ kind: kbDrafts.kind, question: kbDrafts.question, answer: kbDrafts.answer }).from(kbDrafts)
      .where(and(eq(kbDrafts.userId, userId), inArray(kbDrafts.state, ['pending', 'rejected'])))).map(draftKey),
  );
  let made = 0;
  for (const d of drafts) {
    const key = draftKey(d);
    if (seen.has(key)) continue;
    seen.add(key);
    await db.insert(kbDrafts).values({
      userId, crawlId, kind: d.kind, state: 'pending', question: d.question, answer: d.answer, sourceUrl, quote: d.quote,
      currentQuestion: d.currentQuestion ?? null, currentAnswer: d.currentAnswer ?? null, hours: d.hours ?? null,
    });
    made++;
  }
  return made;
}
