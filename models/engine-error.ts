/**
 * A failure of a local AI engine (speech-to-text, language model) that says whether
 * trying again can help: a stopped or busy service (connection refused, timeout, 5xx,
 * 408, 429) is retryable; input the engine rejects is not. The job queue reads `retryable`.
 */
/**
 * Whether an HTTP failure may succeed if sent again, for every engine and gateway: 4xx
 * means the request itself is wrong and will stay wrong, except 408 (timeout) and 429
 * (too many requests); 5xx is the service's trouble.
 */
export function retryableStatus(status: number): boolean {
  return status >= 500 || status === 408 || status === 429;
}

export class EngineError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly status?: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = new.target.name;
  }
}
