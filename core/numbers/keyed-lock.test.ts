import { describe, expect, it } from 'vitest';
import { KeyedLock, TtlCache } from './keyed-lock.js';

describe('KeyedLock', () => {
  it('runs work for one key one at a time, in arrival order, and other keys freely', async () => {
    const lock = new KeyedLock();
    const order: string[] = [];
    let releaseFirst!: () => void;
    const gate = new Promise<void>((r) => (releaseFirst = r));
    const a1 = lock.run('a', async () => {
      order.push('a1 start');
      await gate;
      order.push('a1 end');
    });
    const a2 = lock.run('a', async () => {
      order.push('a2');
    });
    await lock.run('b', async () => {
      order.push('b');
    });
    releaseFirst();
    await Promise.all([a1, a2]);
    expect(order).toEqual(['a1 start', 'b', 'a1 end', 'a2']);
    expect(lock.size).toBe(0);
  });

  it('lets the next caller in after a failure', async () => {
    const lock = new KeyedLock();
    await expect(lock.run('a', async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(lock.run('a', async () => 42)).resolves.toBe(42);
  });
});

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
