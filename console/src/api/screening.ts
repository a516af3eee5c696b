// Nuisance screening (issue 43): an owner's SPAM / NOT SPAM from Call Details, and the admin's
// box-wide list (numbers and counts; the marks behind one number on asking, issue 53) with its
// Clear button and threshold; the owner's own lists and what screened callers get.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ApiBoxList, ApiBoxMarks, ApiBoxThresholds, ApiMarkSpamResponse, ApiScreening } from '../../../contract/schemas/screening';
import { apiGet, apiRequest } from './client';
import { keys } from './keys';
import { messageOr } from '../lib/errors';
import { toast } from '../toast/use-toast';

/**
 * "Mark as spam" / "Not spam" in Call Details: POST /api/call-logs/{id}/spam. A spam mark's toast
 * offers Undo, which puts back what the owner had before: no mark (DELETE
 * /api/user/screening/marks) or, for a caller they had said was not spam, that mark again.
 */
export function useMarkSpam() {
  const qc = useQueryClient();
  const remove = useRemoveMark();
  const mark = useMutation({
    mutationFn: async ({ id, spam }: { id: number; spam: boolean }) => {
      const before = qc.getQueryData<ApiScreening>(keys.screening);
      const res = await apiRequest<ApiMarkSpamResponse>('POST', `/api/call-logs/${id}/spam`, { spam });
      return { res, wasAllowed: before?.allow.includes(res.number) ?? false };
    },
    onSuccess: ({ res, wasAllowed }, { id }) => {
      void qc.invalidateQueries({ queryKey: keys.screening });
      const undo = () => (wasAllowed ? mark.mutate({ id, spam: false }) : remove.mutate(res.number));
      toast({ title: res.message, action: res.verdict === 'spam' ? { label: 'Undo', onClick: undo } : undefined });
    },
    onError: (e) => toast({ variant: 'destructive', title: 'Error', description: messageOr(e, 'Failed to mark the caller') }),
  });
  return mark;
}

export const useBoxList = () => useQuery({ queryKey: keys.admin.screening, queryFn: ({ signal }) => apiGet<ApiBoxList>('/api/admin/screening', signal) });

/** Why one number is listed or not (the admin's "Why"): GET /api/admin/screening/{number}; nothing is asked until a number is chosen. */
export const useBoxMarks = (number: string | null) =>
  useQuery({
    queryKey: keys.admin.screeningMarks(number ?? ''),
    queryFn: ({ signal }) => apiGet<ApiBoxMarks>(`/api/admin/screening/${encodeURIComponent(number ?? '')}`, signal),
    enabled: number !== null,
  });

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

/** The owner's two lists and what screened callers get: GET /api/user/screening. */
export const useOwnerScreening = () => useQuery({ queryKey: keys.screening, queryFn: ({ signal }) => apiGet<ApiScreening>('/api/user/screening', signal) });

/** Both owner changes answer the lists afresh, so the answer replaces the cached copy. */
function useOwnerScreeningChange<V>(request: (v: V) => Promise<ApiScreening>, failed: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: request,
    onSuccess: (res) => {
      qc.setQueryData(keys.screening, res);
      if (res.message) toast({ title: res.message });
    },
    onError: (e) => toast({ variant: 'destructive', title: 'Error', description: messageOr(e, failed) }),
  });
}

/** Reject before answering, or answer with the short message: PUT /api/user/screening. */
export const useSaveScreenAction = () =>
  useOwnerScreeningChange((action: ApiScreening['action']) => apiRequest<ApiScreening>('PUT', '/api/user/screening', { action }), 'Failed to save screening');

/** Takes the owner's mark off a number: DELETE /api/user/screening/marks. */
export const useRemoveMark = () =>
  useOwnerScreeningChange((number: string) => apiRequest<ApiScreening>('DELETE', '/api/user/screening/marks', { number }), 'Failed to remove the number');

/** The admin's thresholds: PUT /api/admin/screening/thresholds. The caller shows a 400 next to the form. */
export function useSaveThresholds() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (t: ApiBoxThresholds) => apiRequest<ApiBoxList>('PUT', '/api/admin/screening/thresholds', t),
    onSuccess: (res) => {
      qc.setQueryData(keys.admin.screening, res);
      toast({ title: res.message ?? 'Thresholds saved' });
    },
  });
}
