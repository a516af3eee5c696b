// The admin's view of `npm run eval`: the latest quality report of each set of models on the box.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ApiQualityReports, ApiSelfTestStatus } from '../../../contract/api';
import { apiGet, apiRequest } from './client';
import { keys } from './keys';

export const useQualityReports = () => useQuery({ queryKey: keys.admin.quality, queryFn: ({ signal }) => apiGet<ApiQualityReports>('/api/admin/quality', signal) });

/** The operator lets new owners start in the default mode though the box's self-test found it slow. */
export function useAcceptAgentMode() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest<ApiSelfTestStatus>('POST', '/api/admin/quality/accept-agent-mode'),
    onSuccess: () => qc.invalidateQueries({ queryKey: keys.admin.quality }),
  });
}
