import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyRequest } from 'fastify';
import type { App } from '../http/fastify-types.js';
import { tooManyRequests } from '../http/errors.js';
import { failureCounter, waitMessage, type AttemptClaim } from '../http/rate-limits.js';

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
  /**
   * Claims this sign-in attempt on the per-address limits before the password is checked
   * (failure-counter claims: guesses sent at once cannot all pass), or throws 429.
   */
  attempt(req: FastifyRequest, email: string): Promise<LoginAttempt>;
}

interface LoginAttempt {
  /** The password was wrong: the claims stand, the account's count grows, then its growing delay. */
  failed(): Promise<void>;
  /** The password was right: the claims are given back, so a sign-in never uses up an allowance. */
  succeeded(): Promise<void>;
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
    async attempt(req, address) {
      key.set(req, address);
      const claims: AttemptClaim[] = [];
      const giveBack = () => Promise.all(claims.map((c) => c.giveBack()));
      try {
        claims.push(await perIp.claim(req));
        claims.push(await perAccountAndIp.claim(req));
        // The ceiling: refused only to an address that has failed on this account before (more than this attempt's own claim).
        if ((await perAccount.count(req)) >= app.rateLimits.loginFailuresPerAccount.max && (await perAccountAndIp.count(req)) > 1) {
          throw tooManyRequests(waitMessage(app.rateLimits.loginFailuresPerAccount.windowMs), app.rateLimits.loginFailuresPerAccount.windowMs / 1000);
        }
      } catch (err) {
        await giveBack();
        throw err;
      }
      return {
        async failed() {
          await perAccount.failed(req);
          const delay = failureDelayMs(await perAccount.count(req));
          if (delay > 0) await sleep(delay);
        },
        async succeeded() {
          await giveBack();
        },
      };
    },
  };
}
