// The core's generic retry helpers, which the PBX's own retries (ARI reconnects, recording
// fetches) share so there is one back-off and one "may this be retried" rule in the process.
// They stay where the core's jobs and database use them; the PBX names them here.
export { backoffDelayMs, type BackoffPolicy } from '../time/backoff.js';
export { errorMessage, RetryableError } from '../jobs/retryable.js';
