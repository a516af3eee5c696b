import fastifyRateLimit from '@fastify/rate-limit';
import type { FastifyRequest } from 'fastify';
import type { App } from './fastify-types.js';
import { tooManyRequests } from './errors.js';
import { sharedRateLimitStore } from './shared-rate-limit-store.js';
import { databaseHitStore, memoryHitStore, type HitStore } from './hit-store.js';

import { MINUTE, type RateLimit, type RateLimits } from './rate-limit-table.js';

export { RATE_LIMITS, type RateLimit, type RateLimits } from './rate-limit-table.js';

const minutes = (ms: number) => {
  const m = Math.max(1, Math.ceil(ms / MINUTE));
  return `${m} minute${m === 1 ? '' : 's'}`;
};

/** The 429 text the console shows (the same words since the first limiter). */
export const waitMessage = (ttlMs: number) => `Too many attempts. Please wait ${minutes(ttlMs)} and try again.`;

/** @fastify/rate-limit for the /api scope; routes opt in (`config.rateLimit`) or count failures below. */
export async function registerRateLimiting(api: App): Promise<void> {
  const { database, now } = api.services;
  await api.register(fastifyRateLimit, {
    global: false,
    ...(database.dialect === 'pg' ? { store: sharedRateLimitStore(database.db, now) } : {}),
    // Large enough that flooding with fresh keys cannot evict a key under attack.
    cache: 100_000,
    errorResponseBuilder: (_req, ctx) => tooManyRequests(waitMessage(ctx.ttl), ctx.ttl / 1000),
  });
}

/**
 * A route's own request limit, keyed by client address unless told otherwise; `preHandler`
 * when the key needs the route's own checks first (the signed-in owner).
 */
export function routeLimit(limit: RateLimit, keyGenerator?: (req: FastifyRequest) => string, hook?: 'preHandler') {
  return {
    rateLimit: { max: limit.max, timeWindow: limit.windowMs, ...(keyGenerator ? { keyGenerator } : {}), ...(hook ? { hook } : {}) },
  };
}

/**
 * A createRateLimit counter's name (`groupId`, which the plugin accepts and validates but its
 * types omit): a shared store keeps each counter's keys apart by it. (The failure counters
 * below count in their own HitStore.)
 */
export const counterName = (name: string) => ({ groupId: name }) as Record<never, never>;

export interface FailureCounter {
  /** Events so far in the window for this request's key. */
  count(req: FastifyRequest): Promise<number>;
  /** Throws 429 once the key has counted `max` events in the window (`message` words it from the wait). */
  check(req: FastifyRequest, message?: (wait: string) => string): Promise<void>;
  /** Counts one event for this request's key. */
  failed(req: FastifyRequest): Promise<void>;
  /**
   * Claims one of the key's attempts before the attempt is judged, counted as a failure until
   * given back: throws 429 (counting nothing) when none is left. Checking first and counting
   * after the judgement would let guesses sent at once all pass the check before any was
   * counted (60 at once over two cores had 40 judged); a claim is one atomic count, so at most
   * `max` are ever judged. An attempt that turns out not to count (the right password) gives
   * its claim back.
   */
  claim(req: FastifyRequest, message?: (wait: string) => string): Promise<AttemptClaim>;
}

export interface AttemptClaim {
  /** The attempt did not count after all: frees its place for the next one. */
  giveBack(): Promise<void>;
}

const hitStores = new WeakMap<object, HitStore>();

/** The services' one store for failure counts (rate-limits' comment: memory on SQLite, the database on PostgreSQL). */
function hitStoreOf(app: App): HitStore {
  const { database, now } = app.services;
  let store = hitStores.get(app.services);
  if (!store) hitStores.set(app.services, (store = database.dialect === 'pg' ? databaseHitStore(database.db, now) : memoryHitStore()));
  return store;
}

/**
 * Counts chosen outcomes only (wrong passwords, bogus tokens, created sign-ups): a successful
 * sign-in never uses up anybody's allowance. Guesses claim their attempt first (`claim`).
 */
export function failureCounter(app: App, name: keyof RateLimits, key: (req: FastifyRequest) => string): FailureCounter {
  const limit = app.rateLimits[name];
  const store = hitStoreOf(app);
  // The counter's name is its namespace in the store (its keys, e.g. an address, are not unique across counters).
  const read = (req: FastifyRequest) => store.read(name, key(req));
  const refusal = (ttl: number, message?: (wait: string) => string) => tooManyRequests(message ? message(minutes(ttl)) : waitMessage(ttl), ttl / 1000);
  return {
    async count(req) {
      return (await read(req)).current;
    },
    async check(req, message) {
      const { current, ttl } = await read(req);
      if (current >= limit.max) throw refusal(ttl, message);
    },
    async failed(req) {
      await store.hit(name, key(req), limit.windowMs);
    },
    async claim(req, message) {
      const k = key(req);
      const { current, ttl } = await store.hit(name, k, limit.windowMs);
      const giveBack = () => store.takeBack(name, k);
      if (current > limit.max) {
        await giveBack();
        throw refusal(ttl, message);
      }
      return { giveBack };
    },
  };
}
