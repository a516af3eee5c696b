/**
 * The one exponential back-off (jobs, database busy retries, ARI reconnects, recording
 * fetches): the wait after a failure doubles from `baseMs`, never above `maxMs`.
 */
export interface BackoffPolicy {
  baseMs: number;
  maxMs: number;
  /** 0..1 (default 0): spread retries so a recovered engine is not hit by every waiting job at once. */
  jitter?: number;
}

export const DEFAULT_BACKOFF: BackoffPolicy = { baseMs: 5_000, maxMs: 30 * 60_000, jitter: 0.2 };

/**
 * Delay before the attempt that follows `failures` failed attempts (1 = the first failure: `baseMs`).
 * `random` is injectable so tests get exact figures.
 */
export function backoffDelayMs(failures: number, policy: BackoffPolicy = DEFAULT_BACKOFF, random: () => number = Math.random): number {
  const n = Math.max(1, Math.floor(failures));
  // 2^(n-1) overflows to Infinity long before n gets silly; min() keeps it bounded.
  const raw = Math.min(policy.maxMs, policy.baseMs * 2 ** (n - 1));
  const spread = policy.jitter ? raw * policy.jitter * (random() * 2 - 1) : 0;
  return Math.max(0, Math.min(policy.maxMs, Math.round(raw + spread)));
}
