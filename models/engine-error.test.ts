import { describe, expect, it } from 'vitest';
import { retryableStatus } from './engine-error.js';

describe('retryableStatus', () => {
  it('retries server trouble, timeouts and rate limits', () => {
    expect([500, 502, 503, 504, 408, 429].map(retryableStatus)).toEqual([true, true, true, true, true, true]);
  });
  it('does not retry a request the service refused as wrong', () => {
    expect([400, 401, 403, 404, 413, 422].map(retryableStatus)).toEqual([false, false, false, false, false, false]);
  });
});
