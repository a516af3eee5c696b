// The owner's webhook (core/webhooks/routes.ts).
import { Type } from 'typebox';
import { MAX_WEBHOOK_URL } from '../rules.js';
import { WEBHOOK_DELIVERY_STATUSES, WEBHOOK_EVENTS } from '../enums.js';
import { Nullable, OneOf } from './shared.js';

const WebhookEventNameSchema = OneOf(WEBHOOK_EVENTS);
const WebhookDeliveryStatusSchema = OneOf(WEBHOOK_DELIVERY_STATUSES);

export const ApiWebhookDeliverySchema = Type.Object({
  id: Type.Integer(),
  event: WebhookEventNameSchema,
  callId: Nullable(Type.Integer()),
  /** pending: queued or waiting for its next attempt; delivered: a 2xx; failed: given up. */
  status: WebhookDeliveryStatusSchema,
  attempts: Type.Integer(),
  lastError: Nullable(Type.String()),
  httpStatus: Nullable(Type.Integer()),
  createdAt: Type.String(),
  updatedAt: Nullable(Type.String()),
  deliveredAt: Nullable(Type.String()),
});

export const ApiWebhookSettingsSchema = Type.Object({
  /** null = off. */
  url: Nullable(Type.String()),
  /** Signs every delivery (HMAC-SHA256); shown to its owner only. */
  secret: Type.String(),
  deliveries: Type.Array(ApiWebhookDeliverySchema),
});

export const WebhookUpdateBody = Type.Object({ url: Type.Union([Type.String({ maxLength: MAX_WEBHOOK_URL }), Type.Null()]) }, { additionalProperties: false });

export const WebhookResponse = Type.Object({ webhook: ApiWebhookSettingsSchema, message: Type.String() });
export const WebhookTestResponse = Type.Object({ delivery: ApiWebhookDeliverySchema, message: Type.String() });
