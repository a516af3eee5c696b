import { describe, expect, it } from 'vitest';
import { ceilingWindowMs, RECENT_MS, SetupWatch } from './setup-watch.js';

describe('SetupWatch: admission by arrival rate (issue 47)', () => {
  it('takes callers up to the configured set-up rate in its window, then refuses until the window frees', () => {
    const w = new SetupWatch({ maxSetupsPerSecond: 3, lateAnswerMs: 0 });
    for (const [i, at] of [0, 100, 200].entries()) {
      expect(w.refusal(at)).toBeUndefined();
      w.admitted(`c${i}`, at);
    }
    expect(w.refusal(300)).toBe('3 new calls in the last 1 s (limit 3 a second)');
    expect(w.refusal(999)).toBeDefined();
    // The first arrival has left the second: one more fits.
    expect(w.refusal(1000)).toBeUndefined();
  });

  it('counts a rate under one a second over a longer window (0.1: one call in any 10 s)', () => {
    expect(ceilingWindowMs(0.1)).toBe(10_000);
    const w = new SetupWatch({ maxSetupsPerSecond: 0.1, lateAnswerMs: 0 });
    w.admitted('a', 0);
    expect(w.refusal(9_999)).toBe('1 new call in the last 10 s (limit 0.1 a second)');
    expect(w.refusal(10_000)).toBeUndefined();
  });

  it('refuses while an admitted caller has waited past the bound for the answer, and takes callers again once answered', () => {
    const w = new SetupWatch({ maxSetupsPerSecond: 0, lateAnswerMs: 1000 });
    w.admitted('slow', 0);
    expect(w.refusal(1000)).toBeUndefined();
    expect(w.refusal(1500)).toBe('a caller has waited 1500 ms to be answered (limit 1000 ms)');
    w.left('slow'); // hung up while ringing: nobody waits any more
    expect(w.refusal(1600)).toBeUndefined();
  });

  it('refuses while recent answers run late (p90 of the last 3 s), not for one slow answer alone', () => {
    const w = new SetupWatch({ maxSetupsPerSecond: 0, lateAnswerMs: 1000 });
    w.admitted('a', 0);
    w.answered('a', 1200);
    expect(w.refusal(1300)).toBeUndefined();
    w.admitted('b', 100);
    w.answered('b', 1250);
    w.admitted('c', 200);
    w.answered('c', 1300);
    expect(w.refusal(1400)).toBe('answers taking 1200 ms (p90 of the last 3 s; limit 1000 ms)');
    // Those answers age out of the window: the node is judged afresh.
    expect(w.refusal(1300 + RECENT_MS)).toBeUndefined();
  });

  it('is off with both limits at 0, whatever it saw', () => {
    const w = new SetupWatch({ maxSetupsPerSecond: 0, lateAnswerMs: 0 });
    expect(w.enabled).toBe(false);
    for (let i = 0; i < 100; i++) w.admitted(`c${i}`, 0);
    expect(w.refusal(60_000)).toBeUndefined();
  });
});
