import { describe, expect, it } from 'vitest';
import { NotifyError } from '../notify/gateway.js';
import { WebhookDeliveryError } from '../webhooks/sender.js';
import { isRetryable, RetryableError } from './retryable.js';

describe('RetryableError', () => {
  it('reads an HTTP status by the one rule: 408, 429 and 5xx may succeed later, any other 4xx will not', () => {
    const verdict = (httpStatus: number) => new RetryableError('x', { httpStatus }).retryable;
    expect([408, 429, 500, 502, 503, 504].map(verdict)).toEqual([true, true, true, true, true, true]);
    expect([400, 401, 403, 404, 410, 413, 422].map(verdict)).toEqual([false, false, false, false, false, false, false]);
    expect(new RetryableError('x', { httpStatus: 503 }).httpStatus).toBe(503);
  });

  it('keeps a verdict given outright, and its subclasses keep their names and fields', () => {
    expect(new RetryableError('x', false)).toMatchObject({ retryable: false, httpStatus: null });
    const sent = new WebhookDeliveryError('the receiver answered HTTP 404', { httpStatus: 404 });
    expect(sent).toMatchObject({ name: 'WebhookDeliveryError', retryable: false, httpStatus: 404, message: 'the receiver answered HTTP 404' });
    const twilio = new NotifyError('Twilio answered 429', { httpStatus: 429 }, 20429);
    expect(twilio).toMatchObject({ name: 'NotifyError', retryable: true, code: 20429 });
    expect(isRetryable(twilio)).toBe(true);
    expect(isRetryable(sent)).toBe(false);
  });
});
