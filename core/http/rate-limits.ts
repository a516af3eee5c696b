import fastifyRateLimit from '@fastify/rate-limit';
import type { FastifyRequest } from 'fastify';
import type { App } from './fastify-types.js';
import { tooManyRequests } from './errors.js';
import { sharedRateLimitStore } from './shared-rate-limit-store.js';

const MINUTE = 60_000;

/**
 * Every limit the API applies, in one place (README "Security" lists them). On SQLite counts
 * live in memory: the appliance is one process, and a restart forgetting them is harmless.
 * On PostgreSQL they live in the database (shared-rate-limit-store.ts), so every core of a
 * cluster counts against the same figures.
 */
export const RATE_LIMITS = {
  /** OWASP: strict per account and address… */
  loginFailuresPerAccountAndIp: { max: 5, windowMs: 15 * MINUTE },
  /** …one address trying many accounts… */
  loginFailuresPerIp: { max: 20, windowMs: 15 * MINUTE },
  /** …and per account a much higher ceiling, reached only by many addresses (see login-throttle). */
  loginFailuresPerAccount: { max: 100, windowMs: 60 * MINUTE },
  changePasswordFailuresPerUser: { max: 5, windowMs: 15 * MINUTE },
  resetRequestsPerIp: { max: 10, windowMs: 15 * MINUTE },
  resetMailsPerAccount: { max: 3, windowMs: 60 * MINUTE },
  resetFailuresPerIp: { max: 10, windowMs: 15 * MINUTE },
  signupsPerIp: { max: 10, windowMs: 60 * MINUTE },
  previewsPerOwner: { max: 10, windowMs: MINUTE },
  /** Each test rings the owner's phone over the trunk (a paid call). */
  testTransfersPerOwner: { max: 5, windowMs: 15 * MINUTE },
  /** "Call my line": each press makes an endpoint on Asterisk and, with TURN, a relay credential. */
  testCallsPerOwner: { max: 10, windowMs: 60 * MINUTE },
  /** "Check my forwarding": each one is a call to the owner's line over the trunk. */
  forwardingChecksPerOwner: { max: 5, windowMs: 60 * MINUTE },
  /** "Send Test Event": each one is a request to the owner's receiver, which the button must not flood. */
  webhookTestsPerOwner: { max: 5, windowMs: 15 * MINUTE },
  /** Each new greeting or voice is synthesised into the shared prompts folder on the shared TTS engine. */
  greetingChangesPerOwner: { max: 10, windowMs: 60 * MINUTE },
  /** Each new notification number or summary e-mail gets a code: a text or mail at the operator's cost. */
  destinationCodesPerOwner: { max: 5, windowMs: 60 * MINUTE },
} as const;

export type RateLimit = { max: number; windowMs: number };
export type RateLimits = { [K in keyof typeof RATE_LIMITS]: RateLimit };

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
 * types omit): a shared store keeps each counter's keys apart by it.
 */
export const counterName = (name: string) => ({ groupId: name }) as Record<never, never>;

export interface FailureCounter {
  /** Events so far in the window for this request's key. */
  count(req: FastifyRequest): Promise<number>;
  /** Throws 429 once the key has counted `max` events in the window (`message` words it from the wait). */
  check(req: FastifyRequest, message?: (wait: string) => string): Promise<void>;
  /** Counts one event for this request's key. */
  failed(req: FastifyRequest): Promise<void>;
}

/**
 * Counts chosen outcomes only (wrong passwords, bogus tokens, created sign-ups) on
 * @fastify/rate-limit's store: a successful sign-in never uses up anybody's allowance.
 */
export function failureCounter(app: App, name: keyof RateLimits, key: (req: FastifyRequest) => string): FailureCounter {
  const limit = app.rateLimits[name];
  // groupId: the counter's own namespace in a shared store (its keys, e.g. an address, are not unique across counters).
  const limiter = app.createRateLimit({ max: limit.max, timeWindow: limit.windowMs, keyGenerator: key, ...counterName(name) });
  const read = async (req: FastifyRequest) => {
    const r = await limiter(req, { increment: false });
    return r.isAllowed ? { current: 0, ttl: 0 } : { current: r.max - r.remaining, ttl: r.ttl };
  };
  return {
    async count(req) {
      return (await read(req)).current;
    },
    async check(req, message) {
      const { current, ttl } = await read(req);
      if (current >= limit.max) throw tooManyRequests(message ? message(minutes(ttl)) : waitMessage(ttl), ttl / 1000);
    },
    async failed(req) {
      await limiter(req);
    },
  };
}
