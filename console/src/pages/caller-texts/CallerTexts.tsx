// Caller Texts: the text-back settings, a thread per caller (their texts beside their calls, an
// answer box), and the callers who opted out with STOP.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { ApiCallerText } from '../../../../contract/schemas/caller-texts';
import { getOptOuts, getThread, getThreads, sendCallerText } from '../../api/caller-texts';
import { keys } from '../../api/keys';
import { useSession } from '../../api/session';
import { Badge, Button, Card, CardHeader, EmptyState, ErrorState, Field, PageHeader, Skeleton, Table, Textarea, cx, td, th, tbodyRow, theadRow, type BadgeTone } from '../../components/ui';
import { messageOr } from '../../lib/errors';
import { formatDateTime, formatPhone } from '../../lib/format';
import { toast } from '../../toast/use-toast';
import { SmsCount } from './SmsCount';
import { TextBackCard } from './TextBackCard';

const STATUS: Record<ApiCallerText['status'], { label: string; tone: BadgeTone }> = {
  received: { label: 'Received', tone: 'blue' },
  sending: { label: 'Sending', tone: 'gray' },
  sent: { label: 'Sent', tone: 'gray' },
  delivered: { label: 'Delivered', tone: 'green' },
  failed: { label: 'Failed', tone: 'red' },
  undelivered: { label: 'Undelivered', tone: 'red' },
};
const KIND: Record<ApiCallerText['kind'], string> = {
  'text-back': 'Text-back',
  owner: 'You',
  stop: 'STOP confirmation',
  start: 'START confirmation',
  caller: 'Caller',
  booking: 'Booking',
  deposit: 'Deposit',
  'call-back': 'Call-back',
};

/** `focusReply`: opened by a push alert's Reply button (`?reply=1`), so the owner can type at once. */
function Thread({ caller, readOnly, focusReply }: { caller: string; readOnly: boolean; focusReply: boolean }) {
  const qc = useQueryClient();
  const query = useQuery({ queryKey: keys.callerTexts.thread(caller), queryFn: ({ signal }) => getThread(caller, signal) });
  const [body, setBody] = useState('');
  const [error, setError] = useState<string | null>(null);
  const form = useRef<HTMLFormElement>(null);
  const loaded = query.isSuccess;
  useEffect(() => {
    if (focusReply && loaded) form.current?.querySelector('textarea')?.focus();
  }, [focusReply, loaded]);
  const send = useMutation({
    mutationFn: () => sendCallerText(caller, body),
    onSuccess: (data) => {
      setBody('');
      setError(null);
      toast({ title: data.message });
    },
    onError: (e) => setError(messageOr(e, 'Failed to send the text')),
    onSettled: () => void qc.invalidateQueries({ queryKey: keys.callerTexts.threads }),
  });
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    send.mutate();
  };
  if (query.isPending) return <Skeleton className="h-40 w-full" />;
  if (query.isError) return <ErrorState title="Unable to load this conversation" message={messageOr(query.error, 'Please try again')} onRetry={() => void query.refetch()} />;
  const t = query.data;
  return (
    <div className="grid grid-cols-1 gap-4">
      {/* Who this is, when a booking knows their name. */}
      {t.callerName && (
        <h3 className="text-sm font-semibold">
          {t.callerName} <span className="font-normal text-slate-600 dark:text-slate-400">· {formatPhone(caller)}</span>
        </h3>
      )}
      {t.optedOutAt && (
        <p role="status" className="rounded-md bg-amber-50 p-3 text-sm text-amber-900 dark:bg-amber-950 dark:text-amber-200">
          This caller replied STOP on {formatDateTime(t.optedOutAt)}: no texts can go to them until they reply START.
        </p>
      )}
      <ol aria-label={`Texts with ${t.callerName ? `${t.callerName}, ` : ''}${formatPhone(caller)}`} className="grid grid-cols-1 gap-2">
        {t.texts.map((m) => (
          <li key={m.id} className={cx('min-w-0 max-w-[85%] rounded-lg p-3 text-sm', m.kind === 'caller' ? 'bg-slate-100 dark:bg-slate-800' : 'ml-auto bg-indigo-50 dark:bg-indigo-950')}>
            <div className="mb-1 flex flex-wrap items-center gap-2 text-xs text-slate-600 dark:text-slate-400">
              <span>{KIND[m.kind]}</span>
              <span>{formatDateTime(m.createdAt)}</span>
              <Badge tone={STATUS[m.status].tone}>{STATUS[m.status].label}</Badge>
            </div>
            {/* anywhere, not break-word: a link has no break in it, and only anywhere lets the bubble's own width shrink to fit. */}
            <p className="whitespace-pre-wrap wrap-anywhere">{m.body}</p>
            {m.error && <p className="mt-1 text-xs text-red-700 dark:text-red-300">Not delivered: {m.error}</p>}
          </li>
        ))}
      </ol>
      {t.calls.length > 0 && (
        <p className="text-xs text-slate-600 dark:text-slate-400">
          Calls: {t.calls.map((c) => `${formatDateTime(c.createdAt)} (${c.status})`).join(', ')}
        </p>
      )}
      {/* Sending is the owner's (403 "Only the business owner can do that." to a staff sign-in). */}
      {!readOnly && (
        <form ref={form} onSubmit={onSubmit} className="grid gap-3">
          <Field label="Your reply" hint={<SmsCount text={body} />} error={error}>
            <Textarea rows={3} maxLength={480} value={body} disabled={!!t.optedOutAt} onChange={(e) => setBody(e.target.value)} />
          </Field>
          <div>
            <Button type="submit" disabled={send.isPending || !!t.optedOutAt || !body.trim()}>Send Text</Button>
          </div>
        </form>
      )}
    </div>
  );
}

function OptOuts() {
  const query = useQuery({ queryKey: keys.callerTexts.optOuts, queryFn: getOptOuts });
  return (
    <Card aria-labelledby="opt-outs-title">
      <CardHeader title={<span id="opt-outs-title">Opted-out callers</span>} description="Callers who replied STOP: nothing is texted to them until they reply START" />
      <div className="p-5">
        {query.isPending ? (
          <Skeleton className="h-16 w-full" />
        ) : query.isError ? (
          <ErrorState title="Unable to load opted-out callers" message={messageOr(query.error, 'Please try again')} onRetry={() => void query.refetch()} />
        ) : query.data.optOuts.length === 0 ? (
          <p className="text-sm text-slate-600 dark:text-slate-400">Nobody has opted out.</p>
        ) : (
          <Table label="Opted-out callers">
            <thead>
              <tr className={theadRow}>
                <th className={th}>Caller</th>
                <th className={th}>Word</th>
                <th className={th}>Since</th>
              </tr>
            </thead>
            <tbody>
              {query.data.optOuts.map((o) => (
                <tr key={o.callerNumber} className={tbodyRow}>
                  <td data-label="Caller" className={td}>{formatPhone(o.callerNumber)}</td>
                  <td data-label="Word" className={td}>{o.word}</td>
                  <td data-label="Since" className={cx(td, 'tabular-nums')}>{formatDateTime(o.optedOutAt)}</td>
                </tr>
              ))}
            </tbody>
          </Table>
        )}
      </div>
    </Card>
  );
}

export default function CallerTexts() {
  // A staff sign-in (issue 58) reads the threads its view allows; the text-back, the opt-outs
  // and replying are the owner's.
  const owner = useSession().staff === null;
  const [params, setParams] = useSearchParams();
  const selected = params.get('caller');
  const focusReply = params.get('reply') === '1';
  const threads = useQuery({ queryKey: keys.callerTexts.threads, queryFn: getThreads });
  return (
    <div className="grid grid-cols-1 gap-6">
      <PageHeader title="Caller Texts" subtitle={owner ? 'Text back missed callers and answer their replies' : "Your callers' texts with the business"} />
      {owner && <TextBackCard />}
      <Card aria-labelledby="threads-title">
        <CardHeader title={<span id="threads-title">Conversations</span>} description="Each caller's texts with your business, newest first" />
        <div className="grid grid-cols-1 gap-5 p-5 lg:grid-cols-[18rem_minmax(0,1fr)]">
          {threads.isPending ? (
            <Skeleton className="h-24 w-full" />
          ) : threads.isError ? (
            <ErrorState title="Unable to load conversations" message={messageOr(threads.error, 'Please try again')} onRetry={() => void threads.refetch()} />
          ) : threads.data.threads.length === 0 && !selected ? (
            <EmptyState title="No texts yet" text="Texts to and from your callers appear here." />
          ) : (
            <>
              {/* A caller with no texts yet is opened by its link (a call's "Text", a push alert's Reply): no list then. */}
              {threads.data.threads.length > 0 && (
                <nav aria-label="Conversations" className="min-w-0">
                  <ul className="grid grid-cols-1 gap-1">
                    {threads.data.threads.map((t) => (
                      <li key={t.callerNumber}>
                        <button
                          type="button"
                          aria-current={selected === t.callerNumber ? 'true' : undefined}
                          onClick={() => setParams({ caller: t.callerNumber })}
                          className={cx('w-full rounded-md p-2 text-left text-sm hover:bg-slate-100 dark:hover:bg-slate-800', selected === t.callerNumber && 'bg-slate-100 dark:bg-slate-800')}
                        >
                          <span className="flex items-center justify-between gap-2 font-medium">
                            {formatPhone(t.callerNumber)}
                            {t.optedOut && <Badge tone="amber">Opted out</Badge>}
                          </span>
                          <span className="block truncate text-xs text-slate-600 dark:text-slate-400">{t.lastBody}</span>
                        </button>
                      </li>
                    ))}
                  </ul>
                </nav>
              )}
              <section aria-label="Conversation" className="min-w-0">
                {selected ? <Thread key={selected} caller={selected} readOnly={!owner} focusReply={focusReply} /> : <p className="text-sm text-slate-600 dark:text-slate-400">{owner ? 'Choose a caller to read and answer their texts.' : 'Choose a caller to read their texts.'}</p>}
              </section>
            </>
          )}
        </div>
      </Card>
      {owner && <OptOuts />}
    </div>
  );
}
