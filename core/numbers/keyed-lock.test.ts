import { describe, expect, it } from 'vitest';
import { KeyedLock } from './keyed-lock.js';

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
