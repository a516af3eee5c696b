// Nuisance screening (issue 43): an owner's SPAM / NOT SPAM from Call Details, and the admin's
// box-wide list (numbers and counts only) with its Clear button.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ApiBoxList, ApiMarkSpamResponse } from '../../../contract/schemas/screening';
import { apiGet, apiRequest } from './client';
import { keys } from './keys';
import { messageOr } from '../lib/errors';
import { toast } from '../toast/use-toast';

/** "Mark as spam" / "Not spam" in Call Details: POST /api/call-logs/{id}/spam. */
export function useMarkSpam() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, spam }: { id: number; spam: boolean }) => apiRequest<ApiMarkSpamResponse>('POST', `/api/call-logs/${id}/spam`, { spam }),
    onSuccess: (res) => {
      void qc.invalidateQueries({ queryKey: keys.screening });
      toast({ title: res.message });
    },
    onError: (e) => toast({ variant: 'destructive', title: 'Error', description: messageOr(e, 'Failed to mark the caller') }),
  });
}

export const useBoxList = () => useQuery({ queryKey: keys.admin.screening, queryFn: ({ signal }) => apiGet<ApiBoxList>('/api/admin/screening', signal) });

/** The admin's "Clear": DELETE /api/admin/screening/{number}. */
export function useClearBoxEntry() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (number: string) => apiRequest<{ message: string }>('DELETE', `/api/admin/screening/${encodeURIComponent(number)}`),
    onSuccess: (res) => {
      void qc.invalidateQueries({ queryKey: keys.admin.screening });
      toast({ title: res.message });
    },
    onError: (e) => toast({ variant: 'destructive', title: 'Error', description: messageOr(e, 'Failed to clear the number') }),
  });
}
