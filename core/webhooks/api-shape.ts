import type { ApiWebhookDelivery } from '../../contract/webhooks.js';
import type { WebhookDelivery } from '../db/schema.js';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** A delivery log row as the API (and the owner's data export) shows it. */
export const toApiDelivery = (d: WebhookDelivery): ApiWebhookDelivery => ({
  id: d.id,
  event: d.event,
  callId: d.callId,
  status: d.status,
  attempts: d.attempts,
  lastError: d.lastError,
  httpStatus: d.httpStatus,
  createdAt: d.createdAt.toISOString(),
  updatedAt: iso(d.updatedAt),
  deliveredAt: iso(d.deliveredAt),
});
