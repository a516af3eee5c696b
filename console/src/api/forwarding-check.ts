// "Check my forwarding" (Phone Numbers): start a check, then read it until it stops calling.
import { useMutation, useQuery } from '@tanstack/react-query';
import type { ApiForwardingCheck, ApiForwardingCheckStarted } from '../../../contract/schemas/forwarding-check';
import { apiGet, apiRequest } from './client';
import { keys } from './keys';

/** How often a check under way is read: it ends within a minute. */
const POLL_MS = 1000;

export const useStartForwardingCheck = () => useMutation({ mutationFn: () => apiRequest<ApiForwardingCheckStarted>('POST', '/api/forwarding-check') });

export const useForwardingCheck = (id: number | undefined) =>
  useQuery({
    queryKey: keys.forwardingCheck(id ?? 0),
    queryFn: ({ signal }) => apiGet<ApiForwardingCheck>(`/api/forwarding-check/${id}`, signal),
    enabled: id !== undefined,
    refetchInterval: (q) => (q.state.data?.state === 'calling' || !q.state.data ? POLL_MS : false),
  });
