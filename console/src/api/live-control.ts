// Listen in and take over a live call (issue 54): POST /api/live/calls/:id/listen and /take-over.
import type { ApiLiveLine, ApiTakeOverResponse } from '../../../contract/schemas/listen';
import { apiRequest, apiSend } from './client';

/** End call on the Live page: the caller is hung up (core/live/routes.ts). */
export const endLiveCall = (callId: number) => apiSend<{ message: string }>('POST', `/api/live/calls/${callId}/end`);

export const requestListen = (callId: number) => apiRequest<ApiLiveLine>('POST', `/api/live/calls/${callId}/listen`);
export const requestTakeOver = (callId: number, via: 'browser' | 'phone') => apiRequest<ApiTakeOverResponse>('POST', `/api/live/calls/${callId}/take-over`, { via });
