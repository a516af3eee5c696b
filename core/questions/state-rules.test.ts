import { describe, expect, it } from 'vitest';
import { canAddToKnowledgeBase, canResolve, questionState } from './state-rules.js';

describe('unanswered question state rules (SPEC.md §4)', () => {
  it('reads In KB first, then Resolved, else Pending', () => {
    expect(questionState({ resolved: false, addedToKnowledgeBase: false })).toBe('pending');
    expect(questionState({ resolved: true, addedToKnowledgeBase: false })).toBe('resolved');
    expect(questionState({ resolved: false, addedToKnowledgeBase: true })).toBe('in_kb');
    expect(questionState({ resolved: true, addedToKnowledgeBase: true })).toBe('in_kb');
  });
  it('resolves pending; resolved again is a no-op; In KB cannot be resolved', () => {
    expect(canResolve('pending')).toEqual({ ok: true, change: true });
    expect(canResolve('resolved')).toEqual({ ok: true, change: false });
    expect(canResolve('in_kb').ok).toBe(false);
  });
  it('adds to the knowledge base from pending or resolved, never twice', () => {
    expect(canAddToKnowledgeBase('pending').ok).toBe(true);
    expect(canAddToKnowledgeBase('resolved').ok).toBe(true);
    expect(canAddToKnowledgeBase('in_kb').ok).toBe(false);
  });
});
