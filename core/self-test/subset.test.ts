import { describe, expect, it } from 'vitest';
import { loadEvalSet } from '../quality/evaluation/set.js';
import { selfTestSubset } from './subset.js';

describe('the self-test subset', () => {
  it('takes ten messages spread over the set and whole conversations holding ten turns, from every business', async () => {
    const set = await loadEvalSet();
    const sub = selfTestSubset(set);
    expect(sub.messages).toHaveLength(10);
    expect(new Set(sub.messages.map((m) => m.id)).size).toBe(10);
    // Spread, not the first ten: the last tenth of the set is represented.
    expect(set.messages.indexOf(sub.messages.at(-1)!)).toBeGreaterThanOrEqual(set.messages.length - Math.ceil(set.messages.length / 10));
    const turns = sub.conversations.reduce((n, c) => n + c.turns.length, 0);
    expect(turns).toBeGreaterThanOrEqual(10);
    expect(turns).toBeLessThanOrEqual(11);
    expect(new Set(sub.conversations.map((c) => c.business)).size).toBe(new Set(set.conversations.map((c) => c.business)).size);
  });

  it('is the same entries every time (the figures of two runs compare)', async () => {
    const ids = (s: ReturnType<typeof selfTestSubset>) => [...s.messages.map((m) => m.id), ...s.conversations.map((c) => c.id)];
    expect(ids(selfTestSubset(await loadEvalSet()))).toEqual(ids(selfTestSubset(await loadEvalSet())));
  });

  it('stops at whole conversations once they hold the turns asked for', async () => {
    const set = await loadEvalSet();
    const sub = selfTestSubset(set, 3, 2);
    expect(sub.messages).toHaveLength(3);
    expect(sub.conversations[0]!.id).toBe(set.conversations[0]!.id);
    const turns = sub.conversations.reduce((n, c) => n + c.turns.length, 0);
    expect(turns - sub.conversations.at(-1)!.turns.length).toBeLessThan(2);
  });
});
