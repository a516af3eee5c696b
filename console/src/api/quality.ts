// The admin's view of `npm run eval`: the latest quality report of each set of models on the box.
import { useQuery } from '@tanstack/react-query';
import type { ApiQualityReports } from '../../../contract/api';
import { apiGet } from './client';
import { keys } from './keys';

export const useQualityReports = () => useQuery({ queryKey: keys.admin.quality, queryFn: ({ signal }) => apiGet<ApiQualityReports>('/api/admin/quality', signal) });
