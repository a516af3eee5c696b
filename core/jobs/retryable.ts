/**
 * Errors say whether trying again can help (livekit's `retryable`): engine adapters set
 * it (timeouts, 5xx, 408, 429 → true; other 4xx, bad input → false). An error that does
 * not say is treated as transient, so an unexpected failure delays work instead of losing it.
 */
export function isRetryable(err: unknown): boolean {
  if (err && typeof err === 'object' && 'retryable' in err) return (err as { retryable: unknown }).retryable !== false;
  return true;
}

export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
