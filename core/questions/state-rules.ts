import type { UnansweredQuestion } from '../db/schema.js';

// SPEC.md §4 "Unanswered question": pending → resolved (resolve); pending or resolved →
// In KB (add-to-KB); any state → deleted. Pure so the rules are tested on their own.

export type QuestionState = 'pending' | 'resolved' | 'in_kb';

export function questionState(q: Pick<UnansweredQuestion, 'resolved' | 'addedToKnowledgeBase'>): QuestionState {
  if (q.addedToKnowledgeBase) return 'in_kb';
  return q.resolved ? 'resolved' : 'pending';
}

export type Verdict = { ok: true; change: boolean } | { ok: false; message: string };

export function canResolve(state: QuestionState): Verdict {
  if (state === 'pending') return { ok: true, change: true };
  // Resolving twice (a double click, a retried request) is harmless: no change, no error.
  if (state === 'resolved') return { ok: true, change: false };
  return { ok: false, message: 'This question is already in your knowledge base.' };
}

export function canAddToKnowledgeBase(state: QuestionState): Verdict {
  if (state === 'in_kb') return { ok: false, message: 'This question is already in your knowledge base.' };
  return { ok: true, change: true };
}
