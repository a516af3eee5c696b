import { AriTimeoutError } from './types.js';

/**
 * Bounds a promise in time. ari-client's REST promises never settle when Asterisk is
 * unreachable (see shared/ari/NOTES.md), so every ARI call goes through here.
 */
export function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new AriTimeoutError(`ARI ${what} got no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
