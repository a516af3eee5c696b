import { useState } from 'react';
import type { AnalyticsPeriod } from '../../../../contract/api';
import { useUrgencyBreakdown } from '../../api/queries';
import { Card, CardHeader, Select, Skeleton } from '../../components/ui';
import { URGENCY_PERIODS, urgencyRows } from '../../lib/analytics';
import { messageOr } from '../../lib/errors';

/** Calls by the urgency their summary gave them, over a period the owner picks (added beside SPEC's cards). */
export function UrgencyBreakdown() {
  const [period, setPeriod] = useState<AnalyticsPeriod>('30d');
  const q = useUrgencyBreakdown(period);
  let body: React.ReactNode;
  if (q.isLoading) body = <Skeleton className="h-24 w-full" />;
  else if (q.isError || !q.data) body = <p className="text-sm text-red-600 dark:text-red-400">{messageOr(q.error, 'Could not load the urgency figures.')}</p>;
  else
    body = (
      <ul className="grid gap-4" aria-label="Calls by urgency">
        {urgencyRows(q.data).map((r) => (
          <li key={r.label} className="grid gap-1.5 text-sm">
            <div className="flex justify-between">
              <span className="font-medium">{r.label}</span>
              <span className="tabular-nums text-slate-500 dark:text-slate-400">
                {r.count} ({r.percent}%)
              </span>
            </div>
            <div className="h-2.5 w-full overflow-hidden rounded-full bg-slate-100 dark:bg-slate-800">
              <div className={`h-full rounded-full ${r.colour}`} style={{ width: `${r.percent}%` }} />
            </div>
          </li>
        ))}
        <li className="text-sm text-slate-600 dark:text-slate-300">
          {`${q.data.screenedCalls.toLocaleString('en-GB')} nuisance ${q.data.screenedCalls === 1 ? 'call' : 'calls'} screened: kept in Call Logs, not texted to you`}
        </li>
      </ul>
    );
  return (
    <Card className="mb-6">
      <CardHeader
        title="Calls by Urgency"
        description="As judged by each call's summary"
        action={
          <Select aria-label="Urgency period" value={period} onChange={(e) => setPeriod(e.target.value as AnalyticsPeriod)} className="!w-auto">
            {URGENCY_PERIODS.map((p) => (
              <option key={p.value} value={p.value}>
                {p.label}
              </option>
            ))}
          </Select>
        }
      />
      <div className="p-5">{body}</div>
    </Card>
  );
}
