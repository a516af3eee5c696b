import type { LanguageModel } from '../../../models/llm/language-model.js';
import type { DraftPage } from '../parts.js';
import { decideDrafts } from './decide-drafts.js';
import { buildDraftPrompt, DRAFT_SCHEMA, parseDraftReply } from './draft-prompt.js';
import { ownerEntries } from './kb-match.js';

/** A reply's room: up to eight pairs of a question, a short answer and a sentence each. */
const MAX_REPLY_TOKENS = 1500;

/**
 * The drafter the website service is handed (core/website/parts.ts): one model call per page,
 * its JSON reply held to DRAFT_SCHEMA, then code's rules (decide-drafts.ts) over every pair. An
 * engine failure throws (the service decides whether the crawl goes on); a reply the model
 * garbled is no drafts.
 */
export function createPageDrafter(model: LanguageModel): DraftPage {
  return async (page, knowledgeBase, signal) => {
    if (!page.text.trim()) return { drafts: [], dropped: 0 };
    // Low temperature: the pairs should copy the page, not vary on it.
    const raw = await model.chat(buildDraftPrompt(page), { signal, maxTokens: MAX_REPLY_TOKENS, temperature: 0.1, format: DRAFT_SCHEMA as unknown as Record<string, unknown> });
    const { drafts, dropped } = decideDrafts(parseDraftReply(raw), page.text, ownerEntries(knowledgeBase));
    return { drafts, dropped };
  };
}
