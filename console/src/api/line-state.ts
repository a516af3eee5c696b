// The line's state (GET /api/line-state for the owner, /api/admin/line-state for the admin):
// read again every LINE_STATE_REFRESH_MS, so a phone system that goes down shows within a minute.
import { useQuery } from '@tanstack/react-query';
import type { ApiAdminLineState, ApiOwnerLineState } from '../../../contract/api';
import { apiGet } from './client';
import { keys } from './keys';

const LINE_STATE_REFRESH_MS = 15_000;

export const useOwnerLineState = (opts: { enabled: boolean }) =>
  useQuery({
    queryKey: keys.lineState,
    queryFn: ({ signal }) => apiGet<ApiOwnerLineState>('/api/line-state', signal),
    refetchInterval: LINE_STATE_REFRESH_MS,
    enabled: opts.enabled,
  });

export const useAdminLineState = () =>
  useQuery({
    queryKey: keys.admin.lineState,
    queryFn: ({ signal }) => apiGet<ApiAdminLineState>('/api/admin/line-state', signal),
    refetchInterval: LINE_STATE_REFRESH_MS,
  });
