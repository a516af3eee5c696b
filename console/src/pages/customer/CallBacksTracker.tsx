import { PhoneOutgoing, XCircle } from 'lucide-react';
import { useState } from 'react';
import type { ApiCallBack } from '../../../../contract/api';
import { callDetailsPath } from '../../../../contract/links';
import { useCallBacks, useCancelCallBack, useTakeCallBack } from '../../api/call-backs';
import { useCallHandling } from '../../api/call-handling';
import { useMediaQuery } from '../../components/use-media-query';
import { Badge, Button, Card, CardHeader, ErrorState } from '../../components/ui';
import { CALL_BACK_STATE_WORDS, callBackDoneByLine, callBackTriesLine, canCancelCallBack, canTakeCallBack, showCallBackTracker } from '../../lib/call-backs';
import { messageOr } from '../../lib/errors';
import { formatCallDate, formatCaller, formatPhone } from '../../lib/format';

const TITLE = "The assistant's call-backs";
const TOUCH_ONLY = '(pointer: coarse)';
const link = 'text-indigo-700 underline underline-offset-2 hover:text-indigo-900 dark:text-indigo-300 dark:hover:text-indigo-200';

/**
 * A link to one call's Call Details: a real address (it opens in a new tab too), and on this page
 * it opens the dialog in place, as the call cards do.
 */
function CallLink({ callId, onOpen, children }: { callId: number; onOpen: (id: number) => void; children: React.ReactNode }) {
  return (
    <a
      href={callDetailsPath(callId)}
      className={link}
      onClick={(e) => {
        if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
        e.preventDefault();
        onOpen(callId);
      }}
    >
      {children}
    </a>
  );
}

type Actions = { cancel: ReturnType<typeof useCancelCallBack>; take: ReturnType<typeof useTakeCallBack> };

function CallBackRow({ cb, tel, actions, onOpenCall }: { cb: ApiCallBack; tel: string | undefined; actions: Actions; onOpenCall: (id: number) => void }) {
  const state = CALL_BACK_STATE_WORDS[cb.state];
  const who = formatCaller(cb.callerNumber);
  const busy = (actions.cancel.isPending && actions.cancel.variables === cb.id) || (actions.take.isPending && actions.take.variables === cb.id);
  const doneBy = callBackDoneByLine(cb);
  return (
    <li className="min-w-0 border-b border-slate-100 p-3 last:border-0 sm:px-5 sm:py-4 dark:border-slate-800">
      <div className="flex flex-wrap items-start justify-between gap-x-3 gap-y-1">
        <div className="min-w-0">
          <p className="font-semibold">{who}</p>
          <p className="text-sm text-slate-600 dark:text-slate-300">
            Due {formatCallDate(cb.dueAt)} · {callBackTriesLine(cb)}
          </p>
        </div>
        <Badge tone={state.tone}>{state.label}</Badge>
      </div>
      <p className="mt-2 wrap-anywhere text-sm text-slate-700 dark:text-slate-300">
        {cb.firstCallId === null ? (
          cb.summary
        ) : (
          <CallLink callId={cb.firstCallId} onOpen={onOpenCall}>
            {cb.summary}
          </CallLink>
        )}
      </p>
      {cb.callBackCallId !== null && (
        <p className="mt-1 text-sm">
          <CallLink callId={cb.callBackCallId} onOpen={onOpenCall}>
            The assistant's call: recording and summary
          </CallLink>
        </p>
      )}
      {doneBy && <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">{doneBy}</p>}
      {(tel || canCancelCallBack(cb) || canTakeCallBack(cb)) && (
        <div role="group" aria-label="Actions" className="mt-2 flex flex-wrap items-center gap-2">
          {tel && (
            <a
              href={tel}
              className="inline-flex h-8 items-center gap-2 rounded-lg bg-indigo-600 px-3 text-sm font-medium text-white shadow-sm hover:bg-indigo-700"
            >
              <PhoneOutgoing className="h-3.5 w-3.5 shrink-0" aria-hidden /> Ring {formatPhone(cb.callerNumber)}
            </a>
          )}
          {canTakeCallBack(cb) && (
            <Button size="sm" variant="outline" disabled={busy} onClick={() => actions.take.mutate(cb.id)} aria-label={`Take it myself: ring ${who}`}>
              <PhoneOutgoing className="h-3.5 w-3.5 shrink-0" aria-hidden /> Take it myself
            </Button>
          )}
          {canCancelCallBack(cb) && (
            <Button size="sm" variant="outline" disabled={busy} onClick={() => actions.cancel.mutate(cb.id)} aria-label={`Cancel the call-back to ${who}`}>
              <XCircle className="h-3.5 w-3.5 shrink-0" aria-hidden /> Cancel
            </Button>
          )}
        </div>
      )}
    </li>
  );
}

/**
 * Call Logs' tracker of the call-backs the assistant makes (issue 56): each one's state, when it
 * is due, its tries, the first call and the assistant's own call; Cancel and Take it myself.
 * Shown when the owner lets the assistant ring back, or when there are call-backs to show.
 * A team member cannot read Call handling, so theirs shows when they have call-backs.
 */
export function CallBacksTracker({ owner, onOpenCall }: { owner: boolean; onOpenCall: (id: number) => void }) {
  const q = useCallBacks();
  const handling = useCallHandling({ enabled: owner });
  // The tel: links Take it myself answered, by call-back: the row keeps it to tap again.
  const [taken, setTaken] = useState<ReadonlyMap<number, string>>(new Map());
  // A touch screen is a phone in the hand: Take it myself rings the caller straight away. A computer
  // keeps the row's Ring link instead of asking the system for a calling app it may not have.
  const touch = useMediaQuery(TOUCH_ONLY);
  const take = useTakeCallBack((res) => {
    setTaken((m) => new Map(m).set(res.callBack.id, res.tel));
    if (touch) window.location.assign(res.tel);
  });
  const cancel = useCancelCallBack();
  const rows = q.data?.callBacks ?? [];
  if (q.isError)
    return (
      <Card className="mb-6" aria-label={TITLE}>
        <ErrorState title="Could not load the assistant's call-backs" message={messageOr(q.error, 'Please try again.')} onRetry={() => void q.refetch()} />
      </Card>
    );
  if (!q.isSuccess || !showCallBackTracker(handling.data?.callHandling.callBacksBy, rows.length)) return null;
  return (
    <Card className="mb-6" aria-labelledby="call-backs-tracker">
      <CardHeader title={<span id="call-backs-tracker">{TITLE}</span>} description="Callers who asked to be rung back. Cancel one that is waiting, or take it yourself." />
      {rows.length === 0 ? (
        <p className="px-5 py-4 text-sm text-slate-600 dark:text-slate-300">None yet: when a caller asks to be rung back, it shows here.</p>
      ) : (
        <ul aria-label={TITLE}>
          {rows.map((cb) => (
            <CallBackRow key={cb.id} cb={cb} tel={taken.get(cb.id)} actions={{ cancel, take }} onOpenCall={onOpenCall} />
          ))}
        </ul>
      )}
    </Card>
  );
}
