import { parseKnowledgeBase } from '../../../dialogue/agent/knowledge-base.js';
import { factKeys } from './answer-facts.js';

// A draft against what the owner already wrote: the same question with the same facts is
// not offered again; the same question with other facts is a change to propose, never a
// silent overwrite. Questions are matched on their content words (light stemming, overlap),
// not by the model: "How much is a boiler service?" and "What does a boiler service cost?"
// are one question.

export interface OwnerEntry {
  question: string;
  answer: string;
}

export type KnowledgeMatch = { kind: 'new' } | { kind: 'same'; entry: OwnerEntry } | { kind: 'change'; entry: OwnerEntry };

/** Words that say nothing of what is asked, cost and price words included (they are the question's form). */
const FILLER = new Set(
  'a an the is are was were be do does did you your yours we our us i me my can could would will should how what when where which who why much many much cost costs price prices charge charges pay of for to in on at with and or any there it this that have has get got much please tell know long take'.split(' '),
);

/** Content words of a question, lowered and lightly stemmed ("services" → "servic", "covering" → "cover"). */
export function questionWords(question: string): Set<string> {
  const words = question.toLowerCase().replace(/[\u2018\u2019]/g, "'").match(/[a-z0-9£]+/g) ?? [];
  return new Set(words.filter((w) => !FILLER.has(w)).map((w) => w.replace(/(?:ing|es|s|ed)$/, '').replace(/e$/, '')));
}

/** How much two questions share: overlap over the smaller one (a short question inside a longer is a match). */
export function questionOverlap(a: string, b: string): number {
  const x = questionWords(a);
  const y = questionWords(b);
  if (!x.size || !y.size) return 0;
  let shared = 0;
  for (const w of x) if (y.has(w)) shared += 1;
  return shared / Math.min(x.size, y.size);
}

/** Past this the two questions ask the same thing. */
const SAME_QUESTION = 0.6;

const sameFacts = (a: string, b: string) => {
  const x = factKeys(a);
  const y = factKeys(b);
  return x.size === y.size && [...x].every((k) => y.has(k));
};

/** The owner's entry the draft's question asks (the closest past the bar), and whether its facts agree. */
export function matchKnowledge(question: string, answer: string, entries: OwnerEntry[]): KnowledgeMatch {
  let best: OwnerEntry | null = null;
  let bestScore = SAME_QUESTION;
  for (const e of entries) {
    const score = questionOverlap(question, e.question);
    if (score >= bestScore && (!best || score > bestScore)) {
      best = e;
      bestScore = score;
    }
  }
  if (!best) return { kind: 'new' };
  return sameFacts(answer, best.answer) ? { kind: 'same', entry: best } : { kind: 'change', entry: best };
}

/** The owner's Q:/A: entries (the free-text notes have no question to match). */
export function ownerEntries(knowledgeBase: string | null): OwnerEntry[] {
  return parseKnowledgeBase(knowledgeBase).entries;
}
