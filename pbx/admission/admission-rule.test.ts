import { describe, expect, it } from 'vitest';
import { refusalReason } from './admission-rule.js';

const idle = { activeCalls: 0, loopLagMs: 5, jobsWaiting: 0 };
const limits = { maxCalls: 5, maxLoopLagMs: 500, maxJobsWaiting: 100 };

describe('refusalReason (admission before answering)', () => {
  it('answers while every figure is under its limit', () => {
    expect(refusalReason({ activeCalls: 4, loopLagMs: 499, jobsWaiting: 99 }, limits)).toBeUndefined();
  });

  it('refuses the call that would exceed the concurrent-call limit, saying why', () => {
    expect(refusalReason({ ...idle, activeCalls: 5 }, limits)).toBe('5 calls in progress (limit 5)');
  });

  it('refuses when the event loop is behind or the post-call queue is long', () => {
    expect(refusalReason({ ...idle, loopLagMs: 812.4 }, limits)).toBe('event loop 812 ms behind (limit 500 ms)');
    expect(refusalReason({ ...idle, jobsWaiting: 100 }, limits)).toBe('100 post-call jobs waiting (limit 100)');
  });

  it('treats a limit of 0 as off', () => {
    expect(refusalReason({ activeCalls: 1000, loopLagMs: 10_000, jobsWaiting: 10_000 }, { maxCalls: 0, maxLoopLagMs: 0, maxJobsWaiting: 0 })).toBeUndefined();
  });
});
