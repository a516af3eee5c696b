import { describe, expect, it } from 'vitest';
import { anyPending, deliveryEvent, deliveryState } from './webhooks';

describe('webhook delivery log display', () => {
  it('names each state by what happens next', () => {
    expect(deliveryState({ status: 'pending', attempts: 0 })).toEqual({ label: 'Queued', tone: 'gray' });
    expect(deliveryState({ status: 'pending', attempts: 2 })).toEqual({ label: 'Retrying', tone: 'amber' });
    expect(deliveryState({ status: 'delivered', attempts: 1 })).toEqual({ label: 'Delivered', tone: 'green' });
    expect(deliveryState({ status: 'failed', attempts: 10 })).toEqual({ label: 'Failed', tone: 'red' });
  });

  it('names the event by its call, or as the test event', () => {
    expect(deliveryEvent({ event: 'call.finished', callId: 41 })).toBe('Call 41');
    expect(deliveryEvent({ event: 'webhook.test', callId: null })).toBe('Test event');
    expect(deliveryEvent({ event: 'call.finished', callId: null })).toBe('Call (deleted)');
  });

  it('refreshes only while a delivery is pending', () => {
    expect(anyPending([{ status: 'delivered' }, { status: 'pending' }])).toBe(true);
    expect(anyPending([{ status: 'delivered' }, { status: 'failed' }])).toBe(false);
  });
});
