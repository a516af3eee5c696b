import { and, eq, inArray, isNotNull, lte } from 'drizzle-orm';
import type { WEBSITE_CRAWL_TRIGGERS, WebsiteCrawlState } from '../../contract/enums.js';
import { WEBSITE_LIMITS } from '../../contract/rules.js';
import type { LanguageModel } from '../../models/llm/language-model.js';
import type { CoreDeps } from '../deps.js';
import { isUniqueViolation } from '../db/client.js';
import { backgroundPass } from '../db/background-pass.js';
import { tablesOf } from '../db/schema.js';
import { transaction } from '../db/transaction.js';
import { createSummaryModel } from '../engines/agent-engines.js';
import { errorMessage } from '../jobs/retryable.js';
import { JobQueue } from '../jobs/queue.js';
import { JobWorker } from '../jobs/worker.js';
import { DAY_MS, HOUR_MS, londonDayStartUtc } from '../time/london-time.js';
import { DEFAULT_BACKOFF } from '../time/backoff.js';
import type { GuardOptions } from '../webhooks/address-guard.js';
import { runCrawl } from './crawl-run.js';
import { crawlSite as crawlWholeSite } from './crawl/crawl-site.js';
import { siteReaderUserAgent } from './crawl/site-rules.js';
import { createPageDrafter } from './draft/page-drafter.js';
import type { CrawlSite, DraftPage } from './parts.js';
import { ownerCrawlsToday } from './store.js';

const WEBSITE_CRAWL_JOB = 'website-crawl';
/** A crawl in these states holds the owner's one open crawl (website_crawls_one_open). */
const OPEN: WebsiteCrawlState[] = ['queued', 'running'];
const crawlJobKey = (crawlId: number) => `website-crawl:${crawlId}`;
const WEEK_MS = WEBSITE_LIMITS.recrawlDays * DAY_MS;
/** How often the weekly re-crawl looks for sites that are due. */
const WEEKLY_TICK_MS = 10 * 60_000;
/** A crawl whose process died is run again by the queue this many times in all before it is given up. */
const CRAWL_ATTEMPTS = 3;

export interface WebsiteOptions {
  /** The crawler; core/website/crawl/'s by default (a test hands in its own to see what it is given). */
  crawlSite?: CrawlSite;
  /** Builds the drafter on the model it is handed (the LLM pool at background priority, so live calls always win); core/website/draft/'s by default. */
  drafter?: (model: LanguageModel) => DraftPage;
  /** The SSRF guard's options for every request of a crawl (a test opens loopback here, in code). */
  guard?: GuardOptions;
  pollMs?: number;
  tickMs?: number;
}

/** Why a crawl could not start, for the route to answer (409 / 429). */
export type CrawlRefusal = { refused: 'open' } | { refused: 'cap'; retryAfterSeconds: number };

/**
 * Learning the business from its website (issue 55): crawls run on their own durable job kind
 * with one lane, so crawls are queued box-wide and read one at a time, survive a restart, and
 * draft with the LLM pool at background priority; a periodic tick starts the weekly re-crawls.
 */
export class WebsiteService {
  readonly queue: JobQueue;
  private readonly worker: JobWorker;
  private tick: ReturnType<typeof setInterval> | undefined;
  /** The SSRF guard's options every crawl request is checked with; the routes judge a typed address by them too. */
  readonly guard: GuardOptions;

  constructor(private readonly deps: CoreDeps, private readonly opts: WebsiteOptions = {}) {
    const { config, database, log, now, agentEngines } = deps;
    this.guard = opts.guard ?? {};
    const model = createSummaryModel(config, agentEngines.pools);
    const draftPage: DraftPage = (opts.drafter ?? createPageDrafter)(model);
    const crawlSite: CrawlSite = opts.crawlSite ?? crawlWholeSite;
    const userAgent = siteReaderUserAgent(config.publicUrl);
    this.queue = new JobQueue(database.db, now, { leaseMs: config.jobs.leaseMs, backoff: DEFAULT_BACKOFF, kinds: [WEBSITE_CRAWL_JOB] });
    this.worker = new JobWorker({
      queue: this.queue,
      log,
      pollMs: opts.pollMs ?? 1000,
      concurrency: 1,
      handlers: {
        [WEBSITE_CRAWL_JOB]: async (job, ctx) => {
          const crawlId = Number(job.payload.crawlId);
          await runCrawl({ db: database.db, now, crawlSite, draftPage, guard: this.guard, pauseMs: config.website.pauseMs, userAgent }, crawlId, ctx.signal);
        },
      },
    });
  }

  /**
   * Queues a crawl of the owner's site. The owner's crawls count against WEBSITE_DAILY_CRAWLS per
   * London day; the weekly ones do not. The caller kicks the worker (kick()). One open crawl per business is the database's rule
   * (website_crawls_one_open), so two requests at once, on one core or two, start one.
   */
  async requestCrawl(userId: number, url: string, trigger: (typeof WEBSITE_CRAWL_TRIGGERS)[number]): Promise<{ crawlId: number } | CrawlRefusal> {
    const { database, now, config } = this.deps;
    const db = database.db;
    const { websiteCrawls } = tablesOf(db);
    const open = await db.select({ id: websiteCrawls.id }).from(websiteCrawls).where(and(eq(websiteCrawls.userId, userId), inArray(websiteCrawls.state, OPEN))).limit(1);
    if (open.length) return { refused: 'open' };
    if (trigger === 'owner') {
      if ((await ownerCrawlsToday(db, userId, now())) >= config.website.dailyCrawls) return { refused: 'cap', retryAfterSeconds: secondsToNextLondonDay(now()) };
    }
    let crawlId: number;
    try {
      crawlId = await transaction(db, async () => {
        const row = (await db.insert(websiteCrawls).values({ userId, url, state: 'queued', trigger, problems: [], createdAt: now() }).returning({ id: websiteCrawls.id }))[0]!;
        await this.queue.enqueue(WEBSITE_CRAWL_JOB, crawlJobKey(row.id), { crawlId: row.id }, { maxAttempts: CRAWL_ATTEMPTS });
        return row.id;
      });
    } catch (err) {
      if (isUniqueViolation(err)) return { refused: 'open' };
      throw err;
    }
    return { crawlId };
  }

  /** Wakes the crawl worker: called once the request's answer is read, so the owner is shown their crawl queued. */
  kick(): void {
    this.worker.kick();
  }

  /** Starts the weekly re-crawl of every site that is due, and moves its date on by whole weeks. Once per site, however many cores tick. */
  async weeklyTick(): Promise<number> {
    const { database, now, log } = this.deps;
    const db = database.db;
    const { websiteSites } = tablesOf(db);
    const t = now();
    const due = await db.select().from(websiteSites).where(and(eq(websiteSites.weekly, true), isNotNull(websiteSites.nextCrawlAt), lte(websiteSites.nextCrawlAt, t)));
    let started = 0;
    for (const site of due) {
      let next = site.nextCrawlAt!.getTime() + WEEK_MS;
      while (next <= t.getTime()) next += WEEK_MS;
      // Conditional on the date read: another core that moved it first started this week's crawl.
      const moved = await db.update(websiteSites).set({ nextCrawlAt: new Date(next) })
        .where(and(eq(websiteSites.userId, site.userId), eq(websiteSites.nextCrawlAt, site.nextCrawlAt!))).returning({ userId: websiteSites.userId });
      if (!moved.length) continue;
      const r = await this.requestCrawl(site.userId, site.url, 'weekly');
      if ('crawlId' in r) started++;
      else log.info({ userId: site.userId }, 'weekly website re-crawl skipped: a crawl is already open');
    }
    if (started) this.worker.kick();
    return started;
  }

  /**
   * Crawls whose job will never run again (it failed for good, or its last attempt's process
   * died) are finished as failed, so the owner is not told forever that their site is being read.
   */
  async finishOrphanedCrawls(): Promise<void> {
    const { database, now } = this.deps;
    const db = database.db;
    const { websiteCrawls, jobs } = tablesOf(db);
    const open = await db.select({ id: websiteCrawls.id }).from(websiteCrawls).where(inArray(websiteCrawls.state, OPEN));
    if (!open.length) return;
    const staleBefore = new Date(now().getTime() - this.deps.config.jobs.leaseMs);
    const live = await db.select({ key: jobs.key, status: jobs.status, attempts: jobs.attempts, maxAttempts: jobs.maxAttempts, lockedAt: jobs.lockedAt }).from(jobs)
      .where(inArray(jobs.key, open.map((c) => crawlJobKey(c.id))));
    const alive = new Set(live.filter((j) => j.status === 'pending' || (j.status === 'running' && (j.attempts < j.maxAttempts || (j.lockedAt && j.lockedAt >= staleBefore)))).map((j) => j.key));
    const orphans = open.filter((c) => !alive.has(crawlJobKey(c.id))).map((c) => c.id);
    if (!orphans.length) return;
    await db.update(websiteCrawls).set({ state: 'failed', error: 'Reading your website was interrupted; try again.', finishedAt: now() })
      .where(and(inArray(websiteCrawls.id, orphans), inArray(websiteCrawls.state, OPEN)));
  }

  start(): void {
    const { log } = this.deps;
    const pass = backgroundPass(async () => {
      try {
        await this.finishOrphanedCrawls();
        await this.weeklyTick();
      } catch (err) {
        log.error({ err: errorMessage(err) }, 'weekly website re-crawl pass failed');
      }
    });
    void pass();
    this.tick ??= setInterval(() => void pass(), this.opts.tickMs ?? WEEKLY_TICK_MS);
    this.tick.unref?.();
    this.worker.start();
  }

  async stop(): Promise<void> {
    if (this.tick) clearInterval(this.tick);
    this.tick = undefined;
    await this.worker.stop();
  }
}

/** Seconds until London's next midnight: when the daily cap lets the owner crawl again. */
function secondsToNextLondonDay(now: Date): number {
  // londonDayStartUtc of a time a day on is that next day's start, BST changes included.
  const t = now.getTime();
  const next = londonDayStartUtc(londonDayStartUtc(t) + DAY_MS + 2 * HOUR_MS);
  return Math.max(1, Math.ceil((next - t) / 1000));
}
