import { bm25Scores, weightedTerms } from './knowledge-relevance.js';
import { estimateTokens } from '../../models/llm/token-estimate.js';

// Which of a long knowledge base's entries a turn's prompt carries (issue 61). A model reads
// every prompt token before its first word: a 2,000-word knowledge base is about 3,000 tokens,
// minutes on a CPU-only box and seconds on an integrated GPU, for every turn the engine cannot
// serve from its prompt cache. So past a bound the prompt keeps the business's fixed facts
// (hours, services, prices, area: what any answer may lean on) in its unchanging prefix, and
// each turn adds only the entries that match what the caller is saying, by BM25.

/** The most of a turn's prompt, in estimated tokens, the knowledge base takes; a knowledge base this size or under is sent whole. */
export const KNOWLEDGE_TOKEN_BOUND = 600;
/** Of that, the most the fixed facts take (they sit in the prefix every turn repeats). */
export const FIXED_FACTS_TOKEN_BOUND = 250;
/** The rest: the entries picked for a turn. */
export const TURN_ENTRIES_TOKEN_BOUND = KNOWLEDGE_TOKEN_BOUND - FIXED_FACTS_TOKEN_BOUND;

/** One entry or note, as the prompt shows it, and the words it is found by. */
export interface KnowledgeItem {
  rendered: string;
  /** The question (or the note) alone: what decides whether it is a fixed fact. */
  topic: string;
  /** Question and answer: what the caller's words are matched against. */
  searchable: string;
}

// The questions whose answers a caller's other questions lean on. Matched on the question
// only: an answer that mentions a price in passing is not a price list.
const FIXED_FACT = /\b(opening|hours|open|closed|services|what do you (do|offer)|prices?|how much is|how much do you charge|call-?outs?|areas?|where are you|address|based)\b/i;

export type KnowledgeSplit = { whole: true } | { whole: false; fixed: KnowledgeItem[]; rest: KnowledgeItem[] };

/** Whole when it fits the bound; otherwise the fixed facts (in the knowledge base's order, up to their bound) and the rest. */
export function splitKnowledge(items: readonly KnowledgeItem[]): KnowledgeSplit {
  if (tokensOf(items) <= KNOWLEDGE_TOKEN_BOUND) return { whole: true };
  const fixed: KnowledgeItem[] = [];
  const rest: KnowledgeItem[] = [];
  let used = 0;
  for (const item of items) {
    const cost = estimateTokens(`${item.rendered}\n`);
    if (FIXED_FACT.test(item.topic) && used + cost <= FIXED_FACTS_TOKEN_BOUND) {
      fixed.push(item);
      used += cost;
    } else rest.push(item);
  }
  return { whole: false, fixed, rest };
}

/** What a turn is matched on: the caller's words now, and their previous turn's at half weight (a follow-up such as "and how much is that?"). */
export interface TurnWords {
  now: string;
  before?: string | undefined;
}

// An entry scoring under this share of the best one shares only a passing word with the caller;
// each entry sent is read fresh every turn (it follows the cached history), so fewer is faster.
const MIN_SHARE_OF_BEST = 0.4;

/**
 * The entries to send with this turn: those sharing words with the caller, best first, while
 * they fit `budget` tokens, returned in the knowledge base's order. None when nothing matches
 * (a "yes" or a "thank you": the fixed facts and the conversation carry it).
 */
export function pickEntries(items: readonly KnowledgeItem[], words: TurnWords, budget = TURN_ENTRIES_TOKEN_BOUND): KnowledgeItem[] {
  const query = weightedTerms([{ text: words.now, weight: 1 }, ...(words.before ? [{ text: words.before, weight: 0.5 }] : [])]);
  const scores = bm25Scores(
    items.map((i) => i.searchable),
    query,
  );
  const best = Math.max(0, ...scores);
  if (best <= 0) return [];
  const ranked = items
    .map((item, at) => ({ item, at, score: scores[at]! }))
    .filter((r) => r.score >= best * MIN_SHARE_OF_BEST)
    .sort((a, b) => b.score - a.score || a.at - b.at);
  const chosen: typeof ranked = [];
  let used = 0;
  for (const r of ranked) {
    const cost = estimateTokens(`${r.item.rendered}\n`);
    if (used + cost > budget) continue; // a long entry that does not fit leaves room for a shorter one
    chosen.push(r);
    used += cost;
  }
  return chosen.sort((a, b) => a.at - b.at).map((r) => r.item);
}

function tokensOf(items: readonly KnowledgeItem[]): number {
  return estimateTokens(items.map((i) => i.rendered).join('\n'));
}
