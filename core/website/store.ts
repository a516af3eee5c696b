import { and, asc, desc, eq, gte, inArray } from 'drizzle-orm';
import type { KbDraftState } from '../../contract/enums.js';
import type { ApiKbDraft, ApiWebsiteCrawl, ApiWebsiteResponse, ApiWebsiteSite } from '../../contract/website.js';
import type { Db } from '../db/client.js';
import { tablesOf } from '../db/schema.js';
import { londonDayStartUtc } from '../time/london-time.js';

// The website's rows as the routes and the job read them; every query is scoped by the owner's id in SQL.

type Tables = ReturnType<typeof tablesOf>;
type CrawlRow = Tables['websiteCrawls']['$inferSelect'];
type DraftRow = Tables['kbDrafts']['$inferSelect'];

const iso = (d: Date | null) => (d ? d.toISOString() : null);

const toApiSite = (s: Tables['websiteSites']['$inferSelect']): ApiWebsiteSite => ({ url: s.url, weekly: s.weekly, nextCrawlAt: iso(s.nextCrawlAt) });

const toApiCrawl = (c: CrawlRow): ApiWebsiteCrawl => ({
  id: c.id, url: c.url, state: c.state, trigger: c.trigger,
  pagesRead: c.pagesRead, pagesUnchanged: c.pagesUnchanged, draftsMade: c.draftsMade, draftsDropped: c.draftsDropped,
  problems: c.problems, error: c.error, startedAt: iso(c.startedAt), finishedAt: iso(c.finishedAt), createdAt: c.createdAt.toISOString(),
});

export const toApiDraft = (d: DraftRow): ApiKbDraft => ({
  id: d.id, kind: d.kind, question: d.question, answer: d.answer, sourceUrl: d.sourceUrl, quote: d.quote,
  currentQuestion: d.currentQuestion, currentAnswer: d.currentAnswer, hours: d.hours ?? null, createdAt: d.createdAt.toISOString(),
});

export async function pendingDrafts(db: Db, userId: number): Promise<DraftRow[]> {
  const { kbDrafts } = tablesOf(db);
  return db.select().from(kbDrafts).where(and(eq(kbDrafts.userId, userId), eq(kbDrafts.state, 'pending'))).orderBy(asc(kbDrafts.createdAt), asc(kbDrafts.id));
}

/** Crawls the owner started today (London), which the daily cap counts; the weekly re-crawl is not the owner's. */
export async function ownerCrawlsToday(db: Db, userId: number, now: Date): Promise<number> {
  const { websiteCrawls } = tablesOf(db);
  const rows = await db.select({ id: websiteCrawls.id }).from(websiteCrawls)
    .where(and(eq(websiteCrawls.userId, userId), eq(websiteCrawls.trigger, 'owner'), gte(websiteCrawls.createdAt, new Date(londonDayStartUtc(now.getTime())))));
  return rows.length;
}

/** GET /api/knowledge/website's answer, and every change's. */
export async function websiteView(db: Db, userId: number, now: Date, dailyCrawls: number): Promise<ApiWebsiteResponse> {
  const { websiteSites, websiteCrawls } = tablesOf(db);
  const site = (await db.select().from(websiteSites).where(eq(websiteSites.userId, userId)).limit(1))[0];
  const crawl = (await db.select().from(websiteCrawls).where(eq(websiteCrawls.userId, userId)).orderBy(desc(websiteCrawls.createdAt), desc(websiteCrawls.id)).limit(1))[0];
  return {
    site: site ? toApiSite(site) : null,
    // With no site there is nothing being learned: the last crawl is history (in the export).
    crawl: site && crawl ? toApiCrawl(crawl) : null,
    drafts: (await pendingDrafts(db, userId)).map(toApiDraft),
    crawlsLeftToday: Math.max(0, dailyCrawls - (await ownerCrawlsToday(db, userId, now))),
  };
}

/** Everything the website part holds for one business, for the owner's export (core/privacy). */
export async function exportWebsite(db: Db, userId: number) {
  const { websiteSites, websiteCrawls, websitePages, kbDrafts } = tablesOf(db);
  const site = (await db.select().from(websiteSites).where(eq(websiteSites.userId, userId)).limit(1))[0];
  return {
    site: site ? toApiSite(site) : null,
    crawls: (await db.select().from(websiteCrawls).where(eq(websiteCrawls.userId, userId)).orderBy(asc(websiteCrawls.id))).map(toApiCrawl),
    pages: (await db.select().from(websitePages).where(eq(websitePages.userId, userId)).orderBy(asc(websitePages.id)))
      .map((p) => ({ url: p.url, title: p.title, updatedAt: p.updatedAt.toISOString() })),
    drafts: (await db.select().from(kbDrafts).where(eq(kbDrafts.userId, userId)).orderBy(asc(kbDrafts.id)))
      .map((d): ApiKbDraft & { state: KbDraftState; decidedAt: string | null } => ({ ...toApiDraft(d), state: d.state, decidedAt: iso(d.decidedAt) })),
  };
}

/**
 * Forgets the owner's site: its pages and pending drafts, and stops a crawl in progress (its job
 * sees the crawl no longer running). Approved entries are in the knowledge base and stay; past
 * crawls stay too, so removing and re-adding the site does not reset the daily cap.
 */
export async function forgetWebsite(db: Db, userId: number, now: Date): Promise<void> {
  const { websiteSites, websiteCrawls, websitePages, kbDrafts } = tablesOf(db);
  await db.update(websiteCrawls).set({ state: 'failed', error: FORGOTTEN, finishedAt: now })
    .where(and(eq(websiteCrawls.userId, userId), inArray(websiteCrawls.state, ['queued', 'running'])));
  await db.delete(kbDrafts).where(and(eq(kbDrafts.userId, userId), eq(kbDrafts.state, 'pending')));
  await db.delete(websitePages).where(eq(websitePages.userId, userId));
  await db.delete(websiteSites).where(eq(websiteSites.userId, userId));
}

const FORGOTTEN = 'Stopped: you removed your website\'s address.';
