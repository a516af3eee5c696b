// Learning the business from its website (issue 55): the API's types, derived from
// contract/schemas/website.ts. docs/website.md says what each part does.
import type { Static } from 'typebox';
import type { ApiKbDraftSchema, ApiWebsiteCrawlSchema, ApiWebsiteSiteSchema, DraftApproveBody, DraftDecisionResponse, WebsiteResponse, WebsiteUpdateBody } from './schemas/website.js';

export type ApiWebsiteSite = Static<typeof ApiWebsiteSiteSchema>;
export type ApiWebsiteCrawl = Static<typeof ApiWebsiteCrawlSchema>;
export type ApiKbDraft = Static<typeof ApiKbDraftSchema>;
export type ApiWebsiteResponse = Static<typeof WebsiteResponse>;
export type ApiWebsiteUpdate = Static<typeof WebsiteUpdateBody>;
export type ApiDraftApprove = Static<typeof DraftApproveBody>;
export type ApiDraftDecision = Static<typeof DraftDecisionResponse>;

/** The routes (core/website/routes.ts), for the console's requests and the tests. */
export const WEBSITE_ROUTES = {
  site: '/api/knowledge/website',
  crawl: '/api/knowledge/website/crawl',
  approve: (id: number) => `/api/knowledge/drafts/${id}/approve`,
  reject: (id: number) => `/api/knowledge/drafts/${id}/reject`,
  approveAll: '/api/knowledge/drafts/approve-all',
  rejectAll: '/api/knowledge/drafts/reject-all',
} as const;
