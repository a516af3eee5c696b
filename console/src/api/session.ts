import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ApiMeta, ApiUser } from '../../../contract/api';
import { apiRequest, getQuery } from './client';
import { keys } from './keys';

/** loading → authenticated (a user) or unauthenticated (null). A 401 here means "signed out", not an error. */
export function useSession() {
  const q = useQuery({ queryKey: keys.me, queryFn: getQuery<{ user: ApiUser }>('/api/auth/me', { on401: 'returnNull' }) });
  return { user: q.data?.user ?? null, isLoading: q.isLoading, isAdmin: q.data?.user.role === 'admin' };
}

/** Product name, telephony provider, help contact and voice names: learnt from the server, never hard-coded. */
export function useMeta() {
  return useQuery({ queryKey: keys.meta, queryFn: getQuery<ApiMeta>('/api/meta') });
}

/** After login or sign-up: set the user, then refetch the session as SPEC.md §4 says. */
export function useSetSignedIn() {
  const qc = useQueryClient();
  return (user: ApiUser) => {
    qc.setQueryData(keys.me, { user });
    void qc.invalidateQueries({ queryKey: keys.me });
  };
}

export function useLogout() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest('POST', '/api/auth/logout', {}),
    onSuccess: () => {
      // Nothing of the previous user may survive: drop every cached answer, then mark signed out.
      qc.clear();
      qc.setQueryData(keys.me, null);
    },
  });
}
