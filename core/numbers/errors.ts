/**
 * Why the numbers service refused, in its own words: the service knows nothing of HTTP, and
 * core/numbers/routes.ts maps each reason to its status code.
 */
export type NumberRefusal =
  /** The account may not have a number (not a business owner, trial over, not active). */
  | 'not-allowed'
  /** No such number is held. */
  | 'unknown-number'
  /** The request names a number that does not match. */
  | 'mismatch'
  /** The number or the request collided with another (taken, already released, none left). */
  | 'conflict'
  /** The telephony provider failed; nothing was changed. */
  | 'provider-failed';

export class NumberServiceError extends Error {
  constructor(
    readonly reason: NumberRefusal,
    message: string,
  ) {
    super(message);
    this.name = 'NumberServiceError';
  }
}
