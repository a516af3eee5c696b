import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { ApiLiveCall } from '../../../../contract/api';
import { Badge, Card, EmptyState, PageHeader, cx } from '../../components/ui';
import { modeWord, sinceWords } from '../../lib/live';
import { useLiveCalls } from '../../live/use-live-calls';
import { LiveCallActions } from './LiveCallActions';

// Calls in progress (issue 54 item 3), updated as they happen over the one shared stream.
// /dashboard/live?call=<id> (a push alert's Listen) highlights that call and scrolls to it.

/** The clock the "since" words tick by: twenty seconds is enough for whole minutes. */
function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), 20_000);
    return () => clearInterval(t);
  }, []);
  return now;
}

function LiveCallCard({ call, now, highlighted }: { call: ApiLiveCall; now: number; highlighted: boolean }) {
  return (
    <Card id={`live-call-${call.id}`} data-testid="live-call" className={cx('p-4', highlighted && 'ring-2 ring-indigo-500')}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2 className="text-base font-semibold">{call.caller}</h2>
          <p className="text-sm text-slate-600 dark:text-slate-400">
            {sinceWords(call.since, now) === 'just now' ? 'Started just now' : `On the line for ${sinceWords(call.since, now)}`}
            {call.forName && ` · for ${call.forName}`}
          </p>
        </div>
        <div className="flex gap-2">
          <Badge tone={call.mode === 'agent' ? 'indigo' : call.mode === 'transfer' ? 'green' : 'gray'}>{modeWord(call.mode)}</Badge>
          {call.testCall && <Badge>Test call</Badge>}
        </div>
      </div>
      {call.mode === 'agent' || call.turns.length > 0 ? (
        <ol aria-live="polite" aria-label={`What has been said on the call from ${call.caller}`} className="mt-3 grid gap-2 text-sm">
          {call.turns.map((t, i) => (
            <li key={i} className={cx('rounded-lg px-3 py-2', t.speaker === 'caller' ? 'bg-slate-100 dark:bg-slate-800' : 'bg-indigo-50 dark:bg-indigo-950')}>
              <span className="font-medium">{t.speaker === 'caller' ? 'Caller' : 'Assistant'}: </span>
              {t.text}
            </li>
          ))}
        </ol>
      ) : null}
      <div className="mt-3"><LiveCallActions callId={call.id} mode={call.mode} /></div>
    </Card>
  );
}

export default function LivePage() {
  const calls = useLiveCalls();
  const now = useNow();
  const [params] = useSearchParams();
  const wanted = Number(params.get('call')) || null;
  const present = wanted !== null && calls.some((c) => c.id === wanted);

  useEffect(() => {
    if (present) document.getElementById(`live-call-${wanted}`)?.scrollIntoView({ block: 'center' });
  }, [present, wanted]);

  return (
    <div className="grid gap-4">
      <PageHeader title="Live" subtitle="Calls in progress now, updated as they happen." />
      {wanted !== null && !present && <p className="text-sm text-slate-600 dark:text-slate-400">That call is not in progress any more. Its details are in Call Logs.</p>}
      {calls.length === 0 ? (
        <EmptyState title="No calls right now" text="When someone calls, the call shows here while it is going on." />
      ) : (
        calls.map((c) => <LiveCallCard key={c.id} call={c} now={now} highlighted={c.id === wanted} />)
      )}
    </div>
  );
}
