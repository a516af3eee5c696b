import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApiCallLog } from '../../../contract/api';
import { apiRequest } from './client';
import { keys } from './keys';
import { calledBackPath } from './paths';
import { messageOr } from '../lib/errors';
import { toast } from '../toast/use-toast';

/** The "Mark called back" button (and its undo): PATCH /api/call-logs/{id}/called-back. */
export function useMarkCalledBack() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, calledBack }: { id: number; calledBack: boolean }) =>
      apiRequest<{ callLog: ApiCallLog; message: string }>('PATCH', calledBackPath(id), { calledBack }),
    onSuccess: (res) => {
      void qc.invalidateQueries({ queryKey: keys.callLogs });
      // Marking a call called back closes its waiting call-back (issue 56): the tracker says so.
      void qc.invalidateQueries({ queryKey: keys.callBacks });
      toast({ title: res.message });
    },
    onError: (e) => toast({ variant: 'destructive', title: 'Error', description: messageOr(e, 'Failed to update the call') }),
  });
}
