import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ApiMe, ApiMeta, ApiUser } from '../../../contract/api';
import { SESSION_HINT_COOKIE } from '../../../contract/session-hint';
import { apiRequest, getQuery } from './client';
import { keys } from './keys';

const readMe = getQuery<ApiMe>('/api/auth/me', { on401: 'returnNull' });
const hasSessionHint = () => document.cookie.split(';').some((c) => c.trim().startsWith(`${SESSION_HINT_COOKIE}=`));

/**
 * Signed out is a normal state, not a failed request: without the session hint cookie no one
 * signed in here, so the server is not asked (its 401 would be logged as a console error). A hint
 * outliving its session (ended elsewhere, expired) is dropped at the first 401.
 */
async function readSession(ctx: Parameters<typeof readMe>[0]) {
  if (!hasSessionHint()) return null;
  const me = await readMe(ctx);
  if (me === null) document.cookie = `${SESSION_HINT_COOKIE}=; Max-Age=0; Path=/; SameSite=Lax`;
  return me;
}

/** loading → authenticated (a user) or unauthenticated (null). A 401 here means "signed out", not an error. */
export function useSession() {
  const q = useQuery({ queryKey: keys.me, queryFn: readSession });
  return { user: q.data?.user ?? null, staff: q.data?.staff ?? null, isLoading: q.isLoading, isAdmin: q.data?.user.role === 'admin' };
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
    mutationFn: async () => {
      // Reads still in flight would come back 401 once the session is gone: abort them first.
      await qc.cancelQueries();
      return apiRequest('POST', '/api/auth/logout', {});
    },
    onSuccess: () => {
      // Nothing of the previous user may survive: drop every cached answer, then mark signed out.
      qc.clear();
      qc.setQueryData(keys.me, null);
    },
  });
}
