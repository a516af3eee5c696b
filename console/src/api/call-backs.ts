import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ApiCallBackResponse, ApiCallBacksResponse, ApiTakeCallBackResponse } from '../../../contract/api';
import { apiGet, apiRequest } from './client';
import { keys } from './keys';
import { messageOr } from '../lib/errors';
import { toast } from '../toast/use-toast';

// The assistant's call-back tracker (issue 56, core/call-backs-store/routes.ts).
const CALL_BACKS_PATH = '/api/call-backs';
const actionPath = (id: number, action: 'cancel' | 'take') => `${CALL_BACKS_PATH}/${id}/${action}`;

export const useCallBacks = () => useQuery({ queryKey: keys.callBacks, queryFn: ({ signal }) => apiGet<ApiCallBacksResponse>(CALL_BACKS_PATH, signal) });

/**
 * Cancel or Take it myself. Either way the list is read again: after a 409 the call-back has
 * moved on (the assistant is ringing, or spoke to them), and the row should say where it is now.
 */
function useCallBackAction<T extends ApiCallBackResponse>(action: 'cancel' | 'take', fallback: string, onDone?: (res: T) => void) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => apiRequest<T>('POST', actionPath(id, action)),
    onSuccess: (res) => {
      toast({ title: res.message });
      onDone?.(res);
    },
    onError: (e) => toast({ variant: 'destructive', title: 'Error', description: messageOr(e, fallback) }),
    onSettled: () => qc.invalidateQueries({ queryKey: keys.callBacks }),
  });
}

export const useCancelCallBack = () => useCallBackAction<ApiCallBackResponse>('cancel', 'Could not cancel the call-back');

/** Take it myself: closes the call-back as the owner's and hands back the caller's tel: link. */
export const useTakeCallBack = (onTaken: (res: ApiTakeCallBackResponse) => void) => useCallBackAction<ApiTakeCallBackResponse>('take', 'Could not take the call-back', onTaken);
