// Push alerts (issue 54): the box's key, this sign-in's devices and their preferences, the owner's delayed text.
import type { ApiPushDevice, ApiPushDevices } from '../../../contract/schemas/push';
import { apiGet, apiRequest } from './client';

type DeviceAnswer = { device: ApiPushDevice; message: string };

export const getPushKey = () => apiGet<{ publicKey: string }>('/api/user/push/key');

export const getPushDevices = ({ signal }: { signal?: AbortSignal } = {}) => apiGet<ApiPushDevices>('/api/user/push/devices', signal);

export const subscribeDevice = (body: { endpoint: string; keys: { p256dh: string; auth: string }; name: string }) => apiRequest<DeviceAnswer>('POST', '/api/user/push/devices', body);

export const updateDevice = (id: number, body: Partial<Pick<ApiPushDevice, 'name' | 'calls' | 'bookings' | 'callerTexts' | 'quietStart' | 'quietEnd'>>) =>
  apiRequest<DeviceAnswer>('PATCH', `/api/user/push/devices/${id}`, body);

export const removeDevice = (id: number) => apiRequest<{ message: string }>('DELETE', `/api/user/push/devices/${id}`);

export const saveTextDelay = (textDelayMinutes: number | null) => apiRequest<{ textDelayMinutes: number | null; message: string }>('PUT', '/api/user/push/settings', { textDelayMinutes });
