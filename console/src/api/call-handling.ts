// Call handling (issue 16): the settings read, their save, one number on or off a list, and the test transfer.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ApiCallHandlingResponse, CallHandlingListName, CallHandlingUpdate } from '../../../contract/call-handling';
import { apiGet, apiRequest } from './client';
import { keys } from './keys';
import { fieldErrors, messageOr } from '../lib/errors';
import { toast } from '../toast/use-toast';

export const useCallHandling = (opts: { enabled?: boolean } = {}) =>
  useQuery({ queryKey: keys.callHandling, queryFn: ({ signal }) => apiGet<ApiCallHandlingResponse>('/api/user/call-handling', signal), enabled: opts.enabled ?? true });

/** Saves the form; a refusal is toasted, and its fields in error (field → message) handed to onInvalid. */
export function useSaveCallHandling(onSaved: (saved: ApiCallHandlingResponse) => void, onInvalid: (errors: Record<string, string>) => void) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: CallHandlingUpdate) => apiRequest<ApiCallHandlingResponse>('PUT', '/api/user/call-handling', body),
    onSuccess: (res) => {
      qc.setQueryData(keys.callHandling, { callHandling: res.callHandling });
      onSaved(res);
      toast({ title: res.message ?? 'Call handling saved' });
    },
    onError: (e) => {
      toast({ variant: 'destructive', title: 'Error', description: messageOr(e, 'Failed to save call handling') });
      onInvalid(fieldErrors(e));
    },
  });
}

/** Adds a number to (or, with remove, takes it off) the block or VIP list at once. */
export function useListEntry() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ list, number, remove }: { list: CallHandlingListName; number: string; remove?: boolean }) =>
      apiRequest<ApiCallHandlingResponse>(remove ? 'DELETE' : 'POST', `/api/user/call-handling/${list}`, { number }),
    onSuccess: (res) => {
      qc.setQueryData(keys.callHandling, { callHandling: res.callHandling });
      if (res.message) toast({ title: res.message });
    },
    onError: (e) => toast({ variant: 'destructive', title: 'Error', description: messageOr(e, 'Failed to update the list') }),
  });
}

/** Rings the owner's transfer number with a sample briefing; the server's message says how it went. */
export function useTestTransfer() {
  return useMutation({
    mutationFn: () => apiRequest<{ message?: string }>('POST', '/api/user/call-handling/test-transfer'),
    onSuccess: (res) => toast({ title: 'Test transfer', description: res?.message ?? 'Ringing your phone now.' }),
    onError: (e) => toast({ variant: 'destructive', title: 'Test transfer failed', description: messageOr(e, 'Could not ring your phone.') }),
  });
}
