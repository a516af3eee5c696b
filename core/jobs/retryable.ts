import { retryableStatus } from '../../models/engine-error.js';

/**
 * Errors say whether trying again can help (livekit's `retryable`): engine adapters set
 * it (timeouts, 5xx, 408, 429 → true; other 4xx, bad input → false). An error that does
 * not say is treated as transient, so an unexpected failure delays work instead of losing it.
 */
export function isRetryable(err: unknown): boolean {
  if (err && typeof err === 'object' && 'retryable' in err) return (err as { retryable: unknown }).retryable !== false;
  return true;
}

// Job errors are logged and stored (`lastError`): the one safe text, never a query's values.
export { errorMessage } from '../logging/safe-errors.js';

/**
 * The base of the core's and the PBX's failures that say whether trying again can help. Given
 * an HTTP status, the one rule decides (models/engine-error.ts `retryableStatus`: 5xx, 408 and
 * 429 may succeed later; any other 4xx will not). The engines' own `EngineError` (models/)
 * follows the same rule and cannot import the core.
 */
export class RetryableError extends Error {
  readonly retryable: boolean;
  /** The HTTP status the verdict was read from, when there was one. */
  readonly httpStatus: number | null;

  constructor(message: string, retry: boolean | { httpStatus: number }, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
    this.retryable = typeof retry === 'boolean' ? retry : retryableStatus(retry.httpStatus);
    this.httpStatus = typeof retry === 'boolean' ? null : retry.httpStatus;
  }
}
