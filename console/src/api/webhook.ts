// The owner's webhook: its settings, their save, a new secret and a test delivery.
import type { ApiWebhookSettings, WebhookUpdate } from '../../../contract/webhooks';
import { apiGet, apiRequest } from './client';

type WebhookAnswer = { webhook: ApiWebhookSettings; message: string };

export const getWebhook = ({ signal }: { signal?: AbortSignal } = {}) => apiGet<ApiWebhookSettings>('/api/user/webhook', signal);

export const saveWebhook = (body: WebhookUpdate) => apiRequest<WebhookAnswer>('PUT', '/api/user/webhook', body);

export const rotateWebhookSecret = () => apiRequest<WebhookAnswer>('POST', '/api/user/webhook/rotate-secret');

export const testWebhook = () => apiRequest<{ message: string }>('POST', '/api/user/webhook/test');
