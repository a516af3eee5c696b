// Listen in and take over a live call (issue 54): POST /api/live/calls/:id/listen and /take-over.
import type { ApiLiveLine, ApiTakeOverResponse } from '../../../contract/schemas/listen';
import { apiRequest } from './client';

export const requestListen = (callId: number) => apiRequest<ApiLiveLine>('POST', `/api/live/calls/${callId}/listen`);
export const requestTakeOver = (callId: number, via: 'browser' | 'phone') => apiRequest<ApiTakeOverResponse>('POST', `/api/live/calls/${callId}/take-over`, { via });
