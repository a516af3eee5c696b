import { eq } from 'drizzle-orm';
import { ApiErrorSchema, IdParams } from '../../contract/schemas/shared.js';
import { DraftApproveBody, DraftDecisionResponse, WebsiteResponse, WebsiteUpdateBody } from '../../contract/schemas/website.js';
import { WEBSITE_LIMITS } from '../../contract/rules.js';
import { WEBSITE_ROUTES, type ApiWebsiteUpdate } from '../../contract/website.js';
import { tablesOf } from '../db/schema.js';
import { transaction } from '../db/transaction.js';
import { DAY_MS } from '../time/london-time.js';
import { badRequest, conflict, tooManyRequests } from '../http/errors.js';
import type { App } from '../http/fastify-types.js';
import { currentUser } from '../http/session-hook.js';
import { approveAll, approveDraft, rejectAll, rejectDraft, type DecisionDeps } from './draft-decisions.js';
import { normaliseSiteAddress } from './site-address.js';
import { forgetWebsite, websiteView } from './store.js';

const ALREADY_READING = 'Your website is already being read.';
const NO_SITE = 'Add your website\'s address first.';

const errors = { 400: ApiErrorSchema, 404: ApiErrorSchema, 409: ApiErrorSchema, 429: ApiErrorSchema };

/**
 * The owner's "Learn from my website" (issue 55). Owner only: a staff sign-in is refused by the
 * access guard's default deny (core/team/staff-scope.ts does not name these routes).
 */
export async function websiteRoutes(app: App): Promise<void> {
  const { database, now, config, website } = app.services;
  const db = database.db;
  const { websiteSites } = tablesOf(db);
  const view = (userId: number) => websiteView(db, userId, now(), config.website.dailyCrawls);
  const decisions: DecisionDeps = { db, now, outboundAllow: config.outbound.allow };

  app.get(WEBSITE_ROUTES.site, { schema: { response: { 200: WebsiteResponse } } }, async (req) => view(currentUser(req).id));

  app.put(WEBSITE_ROUTES.site, { schema: { body: WebsiteUpdateBody, response: { 200: WebsiteResponse, ...errors } } }, async (req) => {
    const user = currentUser(req);
    const body: ApiWebsiteUpdate = req.body;
    const address = normaliseSiteAddress(body.url, website.guard);
    if ('error' in address) throw badRequest(address.error, { url: address.error });
    const t = now();
    const existing = (await db.select().from(websiteSites).where(eq(websiteSites.userId, user.id)).limit(1))[0];
    const weekly = body.weekly ?? existing?.weekly ?? true;
    // Turning weekly on (or giving the site first) sets the first re-crawl a week out; a date already set stays.
    const nextCrawlAt = !weekly ? null : existing?.nextCrawlAt ?? new Date(t.getTime() + WEBSITE_LIMITS.recrawlDays * DAY_MS);
    // A new address keeps the drafts already made: they are the owner's to decide on, whichever site they came from.
    const values = { url: address.url, weekly, nextCrawlAt, updatedAt: t };
    await db.insert(websiteSites).values({ userId: user.id, ...values }).onConflictDoUpdate({ target: websiteSites.userId, set: values });
    return view(user.id);
  });

  app.delete(WEBSITE_ROUTES.site, { schema: { response: { 200: WebsiteResponse } } }, async (req) => {
    const user = currentUser(req);
    await transaction(db, () => forgetWebsite(db, user.id, now()));
    return view(user.id);
  });

  app.post(WEBSITE_ROUTES.crawl, { schema: { response: { 202: WebsiteResponse, ...errors } } }, async (req, reply) => {
    const user = currentUser(req);
    const site = (await db.select().from(websiteSites).where(eq(websiteSites.userId, user.id)).limit(1))[0];
    if (!site) throw badRequest(NO_SITE);
    const r = await website.requestCrawl(user.id, site.url, 'owner');
    if ('refused' in r) {
      if (r.refused === 'open') throw conflict(ALREADY_READING);
      const n = config.website.dailyCrawls;
      throw tooManyRequests(`Your website can be read ${n} ${n === 1 ? 'time' : 'times'} a day; try again after midnight.`, r.retryAfterSeconds);
    }
    const answer = await view(user.id);
    website.kick();
    return reply.code(202).send(answer);
  });

  app.post('/api/knowledge/drafts/:id/approve', { schema: { params: IdParams, body: DraftApproveBody, response: { 200: DraftDecisionResponse, ...errors } } }, async (req) =>
    approveDraft(decisions, currentUser(req).id, req.params.id, req.body ?? {}));

  app.post('/api/knowledge/drafts/:id/reject', { schema: { params: IdParams, response: { 200: DraftDecisionResponse, ...errors } } }, async (req) =>
    rejectDraft(decisions, currentUser(req).id, req.params.id));

  app.post(WEBSITE_ROUTES.approveAll, { schema: { response: { 200: DraftDecisionResponse, ...errors } } }, async (req) => approveAll(decisions, currentUser(req).id));

  app.post(WEBSITE_ROUTES.rejectAll, { schema: { response: { 200: DraftDecisionResponse, ...errors } } }, async (req) => rejectAll(decisions, currentUser(req).id));
}
