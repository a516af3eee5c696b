import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyRequest } from 'fastify';
import type { App } from '../http/fastify-types.js';
import { tooManyRequests } from '../http/errors.js';
import { failureCounter, waitMessage } from '../http/rate-limits.js';

/**
 * How long a failed sign-in to an account is held before its 401, growing with the
 * account's recent failures: nothing for the first few typos, then doubling every five
 * failures up to 10 s. It slows a guesser spread over many addresses without ever
 * locking the account (OWASP Authentication Cheat Sheet, "Account lockout").
 */
export function failureDelayMs(accountFailures: number): number {
  if (accountFailures <= 5) return 0;
  return Math.min(10_000, 250 * 2 ** Math.floor((accountFailures - 6) / 5));
}

export interface LoginThrottle {
  /** Throws 429 when this address may not try this account now. */
  check(req: FastifyRequest, email: string): Promise<void>;
  /** Records a wrong password, then waits the account's growing delay. */
  failed(req: FastifyRequest, email: string): Promise<void>;
}

/**
 * Lock-out is not a weapon: the strict limit is per account *and* address, so failures
 * from elsewhere never lock the owner out of their own account. One address is limited
 * across accounts too; per account there is only a much higher ceiling, past which
 * addresses that have already failed on it are refused while a clean address (the real
 * owner at their usual desk) still gets in.
 */
export function loginThrottle(app: App): LoginThrottle {
  const key = new WeakMap<FastifyRequest, string>();
  const email = (req: FastifyRequest) => key.get(req) ?? '';
  const perAccountAndIp = failureCounter(app, 'loginFailuresPerAccountAndIp', (req) => `${email(req)}|${req.ip}`);
  const perIp = failureCounter(app, 'loginFailuresPerIp', (req) => req.ip);
  const perAccount = failureCounter(app, 'loginFailuresPerAccount', (req) => email(req));

  return {
    async check(req, address) {
      key.set(req, address);
      await perIp.check(req);
      await perAccountAndIp.check(req);
      if ((await perAccount.count(req)) >= app.rateLimits.loginFailuresPerAccount.max && (await perAccountAndIp.count(req)) > 0) {
        throw tooManyRequests(waitMessage(app.rateLimits.loginFailuresPerAccount.windowMs), app.rateLimits.loginFailuresPerAccount.windowMs / 1000);
      }
    },
    async failed(req, address) {
      key.set(req, address);
      await Promise.all([perIp.failed(req), perAccountAndIp.failed(req), perAccount.failed(req)]);
      const delay = failureDelayMs(await perAccount.count(req));
      if (delay > 0) await sleep(delay);
    },
  };
}
