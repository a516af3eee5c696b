import { describe, expect, it } from 'vitest';
import { canAddToKb, canResolve, filterQuestions, kbAnswer, questionBadge, questionCounts } from './questions';

const q = (resolved: boolean, addedToKnowledgeBase: boolean) => ({ resolved, addedToKnowledgeBase });

describe('unanswered questions', () => {
  it('badge: In KB, else Resolved, else Pending', () => {
    expect(questionBadge(q(true, true))).toBe('In KB');
    expect(questionBadge(q(false, true))).toBe('In KB');
    expect(questionBadge(q(true, false))).toBe('Resolved');
    expect(questionBadge(q(false, false))).toBe('Pending');
  });
  it('actions', () => {
    expect(canAddToKb(q(true, false))).toBe(true);
    expect(canAddToKb(q(false, true))).toBe(false);
    expect(canResolve(q(false, false))).toBe(true);
    expect(canResolve(q(true, false))).toBe(false);
    expect(canResolve(q(false, true))).toBe(false);
  });
  it('filters and counts', () => {
    const list = [q(false, false), q(true, false), q(false, true)];
    expect(questionCounts(list)).toEqual({ all: 3, pending: 1, resolved: 2 });
    expect(filterQuestions(list, 'pending')).toHaveLength(1);
    expect(filterQuestions(list, 'resolved')).toHaveLength(2);
  });
  it('sends the trimmed answer, never an empty one', () => {
    expect(kbAnswer('  We open at 9.  ')).toBe('We open at 9.');
    expect(kbAnswer('   ')).toBeNull();
  });
});
