// Unanswered question rules (SPEC.md §4 Unanswered question).
import type { ApiUnansweredQuestion } from '../../../contract/api';

export type QuestionFilter = 'all' | 'pending' | 'resolved';
type Q = Pick<ApiUnansweredQuestion, 'resolved' | 'addedToKnowledgeBase'>;

export function questionBadge(q: Q): 'In KB' | 'Resolved' | 'Pending' {
  if (q.addedToKnowledgeBase) return 'In KB';
  if (q.resolved) return 'Resolved';
  return 'Pending';
}

/** "Resolved" covers everything handled (resolved or added to the KB); "Pending" is the rest. */
function isPending(q: Q): boolean {
  return !q.resolved && !q.addedToKnowledgeBase;
}

export function filterQuestions<T extends Q>(questions: readonly T[], filter: QuestionFilter): T[] {
  if (filter === 'pending') return questions.filter(isPending);
  if (filter === 'resolved') return questions.filter((q) => !isPending(q));
  return [...questions];
}

export function questionCounts(questions: readonly Q[]) {
  const pending = questions.filter(isPending).length;
  return { all: questions.length, pending, resolved: questions.length - pending };
}

export const canAddToKb = (q: Q) => !q.addedToKnowledgeBase;
export const canResolve = (q: Q) => !q.resolved && !q.addedToKnowledgeBase;

/** The trimmed answer, or null when nothing is left to send. */
export function kbAnswer(input: string): string | null {
  const a = input.trim();
  return a ? a : null;
}
