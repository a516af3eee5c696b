// The owner's webhook as the API sends it (core/webhooks/routes.ts). Shared by server and console.

export type WebhookEventName = 'call.finished' | 'webhook.test';
export type WebhookDeliveryStatus = 'pending' | 'delivered' | 'failed';

export interface ApiWebhookDelivery {
  id: number;
  event: WebhookEventName;
  callId: number | null;
  /** pending: queued or waiting for its next attempt; delivered: a 2xx; failed: given up. */
  status: WebhookDeliveryStatus;
  attempts: number;
  lastError: string | null;
  httpStatus: number | null;
  createdAt: string;
  updatedAt: string | null;
  deliveredAt: string | null;
}

export interface ApiWebhookSettings {
  /** null = off. */
  url: string | null;
  /** Signs every delivery (HMAC-SHA256); shown to its owner only. */
  secret: string;
  deliveries: ApiWebhookDelivery[];
}

export interface WebhookUpdate {
  url: string | null;
}
