// Texts with callers: the missed-call text-back settings, the threads, an answer, who opted out.
import type { ApiCallerText, ApiCallerThread, ApiOptOutList, ApiTextBack, ApiThreadList, TextBackSettingsShape } from '../../../contract/schemas/caller-texts';
import { apiGet, apiRequest } from './client';

export const getTextBack = ({ signal }: { signal?: AbortSignal } = {}) => apiGet<ApiTextBack>('/api/user/text-back', signal);
export const saveTextBack = (body: TextBackSettingsShape) => apiRequest<ApiTextBack>('PUT', '/api/user/text-back', body);
export const getThreads = ({ signal }: { signal?: AbortSignal } = {}) => apiGet<ApiThreadList>('/api/user/caller-texts', signal);
export const getThread = (caller: string, signal?: AbortSignal) => apiGet<ApiCallerThread>(`/api/user/caller-texts/thread?caller=${encodeURIComponent(caller)}`, signal);
export const sendCallerText = (caller: string, body: string) =>
  apiRequest<{ text: ApiCallerText; message: string }>('POST', '/api/user/caller-texts/thread', { caller, body });
export const getOptOuts = ({ signal }: { signal?: AbortSignal } = {}) => apiGet<ApiOptOutList>('/api/user/caller-opt-outs', signal);
