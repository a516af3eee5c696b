// The owner's kind of business line (issue 44): picked once on Phone Numbers and saved with the
// owner (PATCH /api/user/settings `lineType`), so the codes shown first everywhere (the picker,
// the SPEC guide's note, the first-run checklist) are the ones their keypad can dial, on every
// device they sign in on. Until they pick, a BT-style landline: the commonest business line, and
// its national-format codes are what a landline keypad (which has no +) can dial.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import type { ApiUser } from '../../../contract/api';
import type { LineType } from '../../../contract/forwarding-codes';
import { keys } from '../api/keys';
import { useSession } from '../api/session';
import { saveSettings } from '../api/settings';
import { toast } from '../toast/use-toast';
import { messageOr } from './errors';

/** [the owner's line type (landline until picked), whether they picked it, save it]. */
export function useLineType(): [LineType, boolean, (t: LineType) => void] {
  const { user } = useSession();
  const qc = useQueryClient();
  const save = useMutation({
    mutationFn: (lineType: LineType) => saveSettings({ lineType }),
    // Shown at once: the picker is a select, and waiting for the server would make it jump back.
    onMutate: (lineType) => qc.setQueryData<{ user: ApiUser } | null>(keys.me, (me) => (me ? { user: { ...me.user, lineType } } : me)),
    onSuccess: ({ user: saved }) => qc.setQueryData(keys.me, { user: saved }),
    onError: (e) => {
      toast({ variant: 'destructive', title: 'Line type not saved', description: messageOr(e, 'Please choose it again.') });
      void qc.invalidateQueries({ queryKey: keys.me });
    },
  });
  const { mutate } = save;
  const set = useCallback((t: LineType) => mutate(t), [mutate]);
  const picked = user?.lineType ?? null;
  return [picked ?? 'landline', picked !== null, set];
}
