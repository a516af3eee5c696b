// Learning the business from its website (issue 55; core/website/ owns the routes, docs/website.md
// says what each part does). The API's shapes, declared once: the server validates and serialises
// with these, the console imports the types contract/website.ts derives from them.
import { Type } from 'typebox';
import { KB_DRAFT_KINDS, WEBSITE_CRAWL_STATES, WEBSITE_CRAWL_TRIGGERS } from '../enums.js';
import { WEBSITE_LIMITS } from '../rules.js';
import { Nullable, OneOf, refusal } from './shared.js';

const StoredDay = Type.Array(Type.Object({ open: Type.String(), close: Type.String() }));
const WeekSchema = Type.Object({ mon: StoredDay, tue: StoredDay, wed: StoredDay, thu: StoredDay, fri: StoredDay, sat: StoredDay, sun: StoredDay });

export const ApiWebsiteSiteSchema = Type.Object({
  url: Type.String(),
  weekly: Type.Boolean(),
  /** ISO instant of the next weekly re-crawl; null when weekly is off. */
  nextCrawlAt: Nullable(Type.String()),
});

/** One crawl's progress and what it could not read, in sentences for the owner. */
export const ApiWebsiteCrawlSchema = Type.Object({
  id: Type.Integer(),
  url: Type.String(),
  state: OneOf(WEBSITE_CRAWL_STATES),
  trigger: OneOf(WEBSITE_CRAWL_TRIGGERS),
  pagesRead: Type.Integer(),
  pagesUnchanged: Type.Integer(),
  draftsMade: Type.Integer(),
  draftsDropped: Type.Integer(),
  problems: Type.Array(Type.Object({ url: Type.String(), problem: Type.String() })),
  error: Nullable(Type.String()),
  startedAt: Nullable(Type.String()),
  finishedAt: Nullable(Type.String()),
  createdAt: Type.String(),
});

/** A pending draft: what it would add (or change), and the page and sentence it came from. */
export const ApiKbDraftSchema = Type.Object({
  id: Type.Integer(),
  kind: OneOf(KB_DRAFT_KINDS),
  question: Type.String(),
  answer: Type.String(),
  sourceUrl: Type.String(),
  quote: Type.String(),
  /** A 'change': the owner's entry as it stands. */
  currentQuestion: Nullable(Type.String()),
  currentAnswer: Nullable(Type.String()),
  /** An 'hours' draft's hours as code read them, offered for Call Handling; null = none readable. */
  hours: Nullable(WeekSchema),
  createdAt: Type.String(),
});

/** GET /api/knowledge/website, and the answer of every change to it. */
export const WebsiteResponse = Type.Object({
  site: Nullable(ApiWebsiteSiteSchema),
  /** The latest crawl, whatever its state; null = never crawled. */
  crawl: Nullable(ApiWebsiteCrawlSchema),
  /** Pending drafts, oldest first. */
  drafts: Type.Array(ApiKbDraftSchema),
  /** Crawls the owner may still start today (WEBSITE_DAILY_CRAWLS). */
  crawlsLeftToday: Type.Integer(),
});

/** PUT /api/knowledge/website: the address the owner types (the server adds https:// when none is given). */
export const WebsiteUpdateBody = Type.Object(
  {
    url: Type.String({ minLength: 1, maxLength: WEBSITE_LIMITS.urlLength, ...refusal(`Enter your website's address (at most ${WEBSITE_LIMITS.urlLength} characters), e.g. www.example.co.uk.`, 'url') }),
    weekly: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

/** POST /api/knowledge/drafts/:id/approve: the owner's edit, when they changed the wording. */
export const DraftApproveBody = Type.Object(
  {
    question: Type.Optional(Type.String({ minLength: 1, maxLength: WEBSITE_LIMITS.questionLength, ...refusal(`The question needs 1 to ${WEBSITE_LIMITS.questionLength} characters.`, 'question') })),
    answer: Type.Optional(Type.String({ minLength: 1, maxLength: WEBSITE_LIMITS.answerLength, ...refusal(`The answer needs 1 to ${WEBSITE_LIMITS.answerLength} characters.`, 'answer') })),
    /** An 'hours' draft: also set Call Handling's opening hours to the draft's. */
    useForCallHandling: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

/** What approving (one or all) answers: the knowledge base as it now reads, and what is still pending. */
export const DraftDecisionResponse = Type.Object({
  knowledgeBase: Type.String(),
  drafts: Type.Array(ApiKbDraftSchema),
  /** How many drafts this decision approved or rejected. */
  decided: Type.Integer(),
});
