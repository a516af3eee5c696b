import { WEBSITE_LIMITS } from '../../../contract/rules.js';
import type { PageDraft, PageDrafts } from '../parts.js';
import { factsNotIn } from './answer-facts.js';
import type { DraftPair } from './draft-prompt.js';
import { matchKnowledge, questionWords, type OwnerEntry } from './kb-match.js';
import { parseOpeningHours } from './opening-hours.js';
import { quoteOnPage } from './quote-on-page.js';

// What becomes of the model's pairs for one page: code decides, the model only proposed.
// A pair whose quote is not on the page, or whose answer states a fact its quote does not, is
// dropped and counted (the owner sees how many); one the owner's knowledge base already says
// is not offered; one that says it differently is a change; the page's opening hours and
// areas covered become the kinds Call Handling and the agent's prompt take.

export interface DraftDecisions extends PageDrafts {
  /** Why each dropped pair was dropped, for the evaluation and the logs. */
  reasons: string[];
}

export function decideDrafts(pairs: DraftPair[], pageText: string, owner: OwnerEntry[]): DraftDecisions {
  const drafts: PageDraft[] = [];
  const reasons: string[] = [];
  let hoursTaken = false;
  let areasTaken = false;
  for (const pair of pairs) {
    // Too long for the owner's edit box: not an invention, just not a usable draft.
    if (pair.question.length > WEBSITE_LIMITS.questionLength || pair.answer.length > WEBSITE_LIMITS.answerLength) continue;
    if (!quoteOnPage(pair.quote, pageText)) {
      reasons.push(`"${pair.quote}" is not on the page`);
      continue;
    }
    const invented = factsNotIn(pair.answer, pair.quote);
    if (invented.length) {
      reasons.push(`"${pair.answer}" states ${invented.map((f) => f.said).join(', ')}, which "${pair.quote}" does not`);
      continue;
    }
    // A model repeats itself on a short page; one draft per question.
    if (drafts.some((d) => sameWords(d.question, pair.question))) continue;
    const match = matchKnowledge(pair.question, pair.answer, owner);
    if (match.kind === 'same') continue;
    const base = { question: pair.question, answer: pair.answer, quote: pair.quote };
    if (match.kind === 'change') {
      drafts.push({ kind: 'change', ...base, currentQuestion: match.entry.question, currentAnswer: match.entry.answer });
      continue;
    }
    // Code reads the hours; a sentence that reads as a week is the hours whatever the model called it.
    const hours = parseOpeningHours(pair.quote);
    if (!hoursTaken && (pair.topic === 'hours' || hours)) {
      hoursTaken = true;
      drafts.push({ kind: 'hours', ...base, hours });
    } else if (!areasTaken && pair.topic === 'areas') {
      areasTaken = true;
      drafts.push({ kind: 'areas', ...base });
    } else {
      drafts.push({ kind: 'new', ...base });
    }
  }
  return { drafts, dropped: reasons.length, reasons };
}

function sameWords(a: string, b: string): boolean {
  const x = questionWords(a);
  const y = questionWords(b);
  return x.size === y.size && [...x].every((w) => y.has(w));
}
