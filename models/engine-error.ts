/**
 * A failure of a local AI engine (speech-to-text, language model) that says whether
 * trying again can help: a stopped or busy service (connection refused, timeout, 5xx,
 * 408, 429) is retryable; input the engine rejects is not. The job queue reads `retryable`.
 */
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
