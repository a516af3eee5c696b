import type { Db } from '../db/client.js';
import { countHit, readHits, sharedKey, takeBackHit, type Hits } from './shared-rate-limit-store.js';

/**
 * Where the failure counters (rate-limits.ts) count: a fixed window per key, as
 * @fastify/rate-limit's stores count, plus taking one hit back, which a counter needs to claim
 * an attempt before judging it and give the claim back when the attempt turns out not to count
 * (a right password). In memory on SQLite (one process), in the shared table on PostgreSQL
 * (every core of a cluster counts against the same figure).
 */
export interface HitStore {
  hit(namespace: string, key: string, windowMs: number): Promise<Hits>;
  read(namespace: string, key: string): Promise<Hits>;
  takeBack(namespace: string, key: string): Promise<void>;
}

/** In this process's memory; `capacity` keys at most (the oldest go first), as the plugin's own cache. */
export function memoryHitStore(capacity = 100_000): HitStore {
  const windows = new Map<string, { hits: number; endsAt: number }>();
  const live = (k: string) => {
    const w = windows.get(k);
    return w && w.endsAt > Date.now() ? w : undefined;
  };
  const hitsOf = (w: { hits: number; endsAt: number } | undefined): Hits => (w ? { current: w.hits, ttl: w.endsAt - Date.now() } : { current: 0, ttl: 0 });
  return {
    // Synchronous between the read and the write: two requests cannot both take the last attempt.
    async hit(namespace, key, windowMs) {
      const k = sharedKey(namespace, key);
      const w = live(k) ?? { hits: 0, endsAt: Date.now() + windowMs };
      w.hits += 1;
      windows.delete(k);
      windows.set(k, w);
      if (windows.size > capacity) windows.delete(windows.keys().next().value!);
      return hitsOf(w);
    },
    async read(namespace, key) {
      return hitsOf(live(sharedKey(namespace, key)));
    },
    async takeBack(namespace, key) {
      const w = live(sharedKey(namespace, key));
      if (w && w.hits > 0) w.hits -= 1;
    },
  };
}

/** In the shared rate_limits table: each call is one statement, which PostgreSQL takes one at a time per key. */
export function databaseHitStore(db: Db, now: () => Date): HitStore {
  return {
    hit: (namespace, key, windowMs) => countHit(db, sharedKey(namespace, key), windowMs, now()),
    read: (namespace, key) => readHits(db, sharedKey(namespace, key), now()),
    takeBack: (namespace, key) => takeBackHit(db, sharedKey(namespace, key), now()),
  };
}
