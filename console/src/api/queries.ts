// Reads of the customer and admin screens: one hook per resource, keyed hierarchically (keys.ts).
import { infiniteQueryOptions, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import type {
  AnalyticsPeriod,
  ApiAgentCapacity,
  ApiEngines,
  ApiAnalytics,
  ApiCallLogResponse,
  ApiCallLogsResponse,
  ApiNumberStats,
  ApiPhoneNumber,
  ApiProviderNumber,
  ApiUnansweredQuestion,
  ApiUsage,
  ApiUser,
} from '../../../contract/api';
import { apiGet } from './client';
import { keys } from './keys';
import { USAGE_REFRESH_MS } from '../lib/usage';

function callLogsPath(before: string | null, staffId: number | null): string {
  const q = new URLSearchParams();
  if (staffId !== null) q.set('staffId', String(staffId));
  if (before) q.set('before', before);
  const query = q.toString();
  return query ? `/api/call-logs?${query}` : '/api/call-logs';
}

/** The newest calls first (one person's, with the team's person filter); older pages on demand through the server's nextCursor. */
const callLogsOptions = (staffId: number | null) =>
  infiniteQueryOptions({
    // Under keys.callLogs, so whatever refreshes the list refreshes each person's too.
    queryKey: staffId === null ? keys.callLogs : [...keys.callLogs, 'staff', staffId],
    queryFn: ({ pageParam, signal }) => apiGet<ApiCallLogsResponse>(callLogsPath(pageParam, staffId), signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });

export const callLogsQuery = callLogsOptions(null);

export const useCallLogs = (staffId: number | null = null) => useInfiniteQuery(staffId === null ? callLogsQuery : callLogsOptions(staffId));

/** One call by id, for a link to a call the loaded pages do not reach. */
export const useCallLog = (id: number | null, opts: { enabled: boolean }) =>
  useQuery({
    queryKey: keys.callLog(id ?? 0),
    queryFn: ({ signal }) => apiGet<ApiCallLogResponse>(`/api/call-logs/${id}`, signal),
    enabled: opts.enabled && id !== null,
    retry: false,
  });

export const useAnalytics = (opts: { enabled?: boolean } = {}) =>
  useQuery({ queryKey: keys.analytics, queryFn: ({ signal }) => apiGet<ApiAnalytics | null>('/api/analytics', signal), enabled: opts.enabled ?? true });

/** The urgency breakdown over a period (the rest of the answer is the same as useAnalytics'). */
export const useUrgencyBreakdown = (period: AnalyticsPeriod) =>
  useQuery({
    queryKey: keys.analyticsUrgency(period),
    queryFn: async ({ signal }) => {
      const a = await apiGet<ApiAnalytics>(`/api/analytics?period=${period}`, signal);
      // Screened nuisance calls (issue 43) are counted over the same period.
      return { ...a.urgencyBreakdown, screenedCalls: a.screenedCalls };
    },
  });

export const usePhoneNumbers = () =>
  useQuery({ queryKey: keys.phoneNumbers, queryFn: ({ signal }) => apiGet<{ numbers: ApiPhoneNumber[] }>('/api/phone-numbers', signal) });

export const useQuestions = () =>
  useQuery({ queryKey: keys.questions, queryFn: ({ signal }) => apiGet<{ questions: ApiUnansweredQuestion[] }>('/api/unanswered-questions', signal) });

export const useAdminUsers = () => useQuery({ queryKey: keys.admin.users, queryFn: ({ signal }) => apiGet<{ users: ApiUser[] }>('/api/admin/users', signal) });

/** Conversations come and go within minutes: the admin dashboard's figure follows them. */
const AGENT_CAPACITY_REFRESH_MS = 15_000;

export const useAgentCapacity = () =>
  useQuery({ queryKey: keys.admin.agentCapacity, queryFn: ({ signal }) => apiGet<ApiAgentCapacity>('/api/admin/agent-capacity', signal), refetchInterval: AGENT_CAPACITY_REFRESH_MS });

/** A model download moves by the minute: its percentage followed on the admin dashboard. */
const ENGINES_REFRESH_MS = 5_000;

export const useEngines = () => useQuery({ queryKey: keys.admin.engines, queryFn: ({ signal }) => apiGet<ApiEngines>('/api/admin/engines', signal), refetchInterval: ENGINES_REFRESH_MS });

export const useApprovals = (opts: { enabled?: boolean } = {}) =>
  useQuery({ queryKey: keys.admin.approvals, queryFn: ({ signal }) => apiGet<{ users: ApiUser[] }>('/api/admin/approvals', signal), enabled: opts.enabled ?? true });

export const useProviderNumbers = (provider: string) =>
  useQuery({
    queryKey: keys.admin.numbers(provider),
    queryFn: ({ signal }) => apiGet<{ numbers: ApiProviderNumber[]; stats: ApiNumberStats }>(`/api/admin/${encodeURIComponent(provider)}-numbers`, signal),
  });

/** Account usage refreshes itself every 5 minutes (SPEC.md §7). */
export const useUsage = (provider: string) =>
  useQuery({
    queryKey: keys.admin.usage(provider),
    queryFn: ({ signal }) => apiGet<ApiUsage>(`/api/admin/${encodeURIComponent(provider)}-usage`, signal),
    refetchInterval: USAGE_REFRESH_MS,
  });
