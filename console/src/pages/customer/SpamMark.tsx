// The owner's own spam mark on a caller (issue 57, item 5): "Mark as spam" asks first, since it
// screens that caller's future calls, and its toast offers Undo; a caller on the spam list says
// so on their card and in Call Details, with Remove.
import { ShieldAlert, ShieldCheck, ShieldX } from 'lucide-react';
import { useId, useState } from 'react';
import type { ApiCallLog } from '../../../../contract/api';
import { canMarkSpam } from '../../../../contract/callback';
import { useMarkSpam, useOwnerScreening, useRemoveMark } from '../../api/screening';
import { Badge, Button } from '../../components/ui';
import { formatPhone } from '../../lib/format';

/** Whether the caller's number is on the owner's own spam list now (false while unknown). */
export function useOnSpamList(call: Pick<ApiCallLog, 'fromNumber'>): boolean {
  const lists = useOwnerScreening();
  return lists.data?.spam.includes(call.fromNumber) ?? false;
}

export function SpamListBadge({ call }: { call: ApiCallLog }) {
  return useOnSpamList(call) ? <Badge tone="red">On your spam list</Badge> : null;
}

/** Takes the caller off the owner's spam list (DELETE /api/user/screening/marks). */
export function RemoveSpamMark({ call, size = 'sm' }: { call: ApiCallLog; size?: 'sm' | 'md' }) {
  const remove = useRemoveMark();
  if (!useOnSpamList(call)) return null;
  return (
    <Button size={size} variant="outline" disabled={remove.isPending} onClick={() => remove.mutate(call.fromNumber)} aria-label={`Remove ${formatPhone(call.fromNumber)} from your spam list`}>
      <ShieldX className="h-3.5 w-3.5 shrink-0" aria-hidden /> <span className="max-w-full truncate">Remove</span>
    </Button>
  );
}

/** What a spam mark does with this owner's screening choice, for the question before it. */
function whatSpamDoes(action: 'reject' | 'message' | undefined): string {
  if (action === 'message') return 'Their future calls hear "Sorry, we can\'t take your call. Goodbye." and are not texted to you.';
  return 'Their future calls are rejected before they reach you, and are not texted to you.';
}

/**
 * Call Details' SPAM / NOT SPAM. "Mark as spam" first asks, in place (a dialog over Call Details
 * would close both on Escape); a caller already on the list shows it with Remove instead.
 */
export function SpamButtons({ call }: { call: ApiCallLog }) {
  const mark = useMarkSpam();
  const lists = useOwnerScreening();
  const listed = useOnSpamList(call);
  const [asking, setAsking] = useState(false);
  const questionId = useId();
  if (!canMarkSpam(call)) return null;
  const shown = formatPhone(call.fromNumber);
  if (asking) {
    return (
      <div role="group" aria-labelledby={questionId} className="grid w-full gap-3 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100">
        <p id={questionId}>
          <span className="font-semibold">Mark {shown} as spam?</span> {whatSpamDoes(lists.data?.action)} You can undo it, or remove them from your spam list later.
        </p>
        <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <Button variant="outline" onClick={() => setAsking(false)}>Keep as it is</Button>
          <Button
            variant="danger"
            disabled={mark.isPending}
            onClick={() => mark.mutate({ id: call.id, spam: true }, { onSettled: () => setAsking(false) })}
          >
            <ShieldAlert className="h-4 w-4" aria-hidden /> Yes, mark as spam
          </Button>
        </div>
      </div>
    );
  }
  return (
    <>
      {listed ? (
        <p className="flex min-h-11 items-center gap-2 text-sm font-medium">
          <Badge tone="red">On your spam list</Badge>
        </p>
      ) : (
        <Button variant="outline" disabled={mark.isPending} onClick={() => setAsking(true)}>
          <ShieldAlert className="h-4 w-4" aria-hidden /> Mark as spam
        </Button>
      )}
      {listed && <RemoveSpamMark call={call} size="md" />}
      <Button variant="outline" disabled={mark.isPending} onClick={() => mark.mutate({ id: call.id, spam: false })}>
        <ShieldCheck className="h-4 w-4" aria-hidden /> Not spam
      </Button>
    </>
  );
}
