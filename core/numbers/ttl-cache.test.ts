import { describe, expect, it } from 'vitest';
import { TtlCache } from './ttl-cache.js';

describe('TtlCache', () => {
  it('shares a load in flight, keeps the value for the ttl, and reloads after it', async () => {
    let t = 0;
    let loads = 0;
    const cache = new TtlCache<number>(60_000, () => new Date(t));
    const load = async () => ++loads;
    expect(await Promise.all([cache.get(load), cache.get(load)])).toEqual([1, 1]);
    t = 59_000;
    expect(await cache.get(load)).toBe(1);
    t = 61_000;
    expect(await cache.get(load)).toBe(2);
  });

  it('does not keep a failure', async () => {
    const cache = new TtlCache<number>(60_000, () => new Date(0));
    await expect(cache.get(() => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(await cache.get(async () => 7)).toBe(7);
  });
});
