// The owner's webhook as the API sends it (core/webhooks/routes.ts). Shared by server and console;
// derived from the schemas in contract/schemas/webhooks.ts.
import type { Static } from 'typebox';
import type { ApiWebhookDeliverySchema, ApiWebhookSettingsSchema, WebhookUpdateBody } from './schemas/webhooks.js';

export type ApiWebhookDelivery = Static<typeof ApiWebhookDeliverySchema>;
export type ApiWebhookSettings = Static<typeof ApiWebhookSettingsSchema>;
export type WebhookUpdate = Static<typeof WebhookUpdateBody>;
