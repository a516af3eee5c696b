import { afterEach, describe, expect, it, vi } from 'vitest';
import { createAdmissionGate, FULL_UNTIL_VARIABLE } from './admission-gate.js';

const quiet = { loopLagMs: () => 0, jobsWaiting: () => 0, stop: () => undefined };
const off = { maxCalls: 0, maxLoopLagMs: 0, maxJobsWaiting: 0, maxSetupsPerSecond: 0, lateAnswerMs: 0 };

function gate(limits: Partial<typeof off>, load = quiet) {
  let clock = 1_000_000; // ms, the core's clock; Asterisk's runs 5 s ahead in these tests
  const sets: string[] = [];
  const g = createAdmissionGate({
    limits: { ...off, ...limits },
    load,
    rest: { setGlobalVariable: async (name, value) => void sets.push(`${name}=${value}`) },
    log: { warn: () => undefined },
    now: () => clock,
  });
  return { g, sets, advance: (ms: number) => ((clock += ms), vi.advanceTimersByTime(ms)), ari: () => clock + 5000 };
}

afterEach(() => vi.useRealTimers());

describe('the admission gate: the core refusing tells Asterisk to refuse too (issue 47)', () => {
  it('keeps CORE_FULL_UNTIL a second ahead on Asterisk’s clock while the set-up rate refuses, then clears it to 0', () => {
    vi.useFakeTimers();
    const { g, sets, advance, ari } = gate({ maxSetupsPerSecond: 1 });
    expect(g.admit('a', 0, ari())).toBeUndefined();
    expect(sets).toEqual([]);
    advance(100);
    expect(g.admit('b', 1, ari())).toBe('1 new call in the last 1 s (limit 1 a second)');
    // Asterisk's now is 1,005,100 ms: refused until the EPOCH second after now + 1 s.
    expect(sets).toEqual([`${FULL_UNTIL_VARIABLE}=1007`]);
    advance(500);
    expect(sets.at(-1)).toBe(`${FULL_UNTIL_VARIABLE}=1007`); // the same second is not sent again
    advance(500); // the first arrival has left the window: the next re-check clears the flag
    expect(sets.at(-1)).toBe(`${FULL_UNTIL_VARIABLE}=0`);
    const sent = sets.length;
    advance(2000);
    expect(sets.length).toBe(sent); // nothing more while not refusing
    g.stop();
  });

  it('leaves calls in progress to the core alone (Asterisk’s maxcalls is that limit at the edge): no flag', () => {
    vi.useFakeTimers();
    const { g, sets, ari } = gate({ maxCalls: 2 });
    expect(g.admit('c', 2, ari())).toBe('2 calls in progress (limit 2)');
    expect(sets).toEqual([]);
    g.stop();
  });

  it('refuses while an admitted caller waits past the late-answer bound, and takes callers again once answered', () => {
    vi.useFakeTimers();
    const { g, advance, ari } = gate({ lateAnswerMs: 1000 });
    expect(g.admit('slow', 0, ari())).toBeUndefined();
    advance(1500);
    expect(g.admit('next', 1, ari())).toBe('a caller has waited 1500 ms to be answered (limit 1000 ms)');
    g.answered('slow');
    expect(g.admit('next', 1, ari())).toBeUndefined();
    g.stop();
  });
});
