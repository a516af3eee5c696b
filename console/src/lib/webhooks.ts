// Display rules for the webhook delivery log (Notification Settings → Webhooks).
import type { ApiWebhookDelivery } from '../../../contract/webhooks';
import type { BadgeTone } from '../components/ui';

/** Queued (not tried yet), Retrying (tried, another attempt coming), Delivered or Failed. */
export function deliveryState(d: Pick<ApiWebhookDelivery, 'status' | 'attempts'>): { label: string; tone: BadgeTone } {
  if (d.status === 'delivered') return { label: 'Delivered', tone: 'green' };
  if (d.status === 'failed') return { label: 'Failed', tone: 'red' };
  return d.attempts > 0 ? { label: 'Retrying', tone: 'amber' } : { label: 'Queued', tone: 'gray' };
}

export const deliveryEvent = (d: Pick<ApiWebhookDelivery, 'event' | 'callId'>) =>
  d.event === 'webhook.test' ? 'Test event' : d.callId !== null ? `Call ${d.callId}` : 'Call (deleted)';

/** The log refreshes itself while something is still on its way. */
export const WEBHOOK_LOG_REFRESH_MS = 3_000;
export const anyPending = (ds: readonly Pick<ApiWebhookDelivery, 'status'>[]) => ds.some((d) => d.status === 'pending');
