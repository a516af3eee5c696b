import { Link } from 'react-router-dom';
import { callDetailsPath } from '../../../../contract/links';
import { BarChart3, Clock, PhoneCall, PhoneMissed, TrendingUp } from 'lucide-react';
import { useAnalytics } from '../../api/queries';
import { CallStatusBadge } from '../../components/StatusBadge';
import { Card, CardHeader, EmptyState, ErrorState, PageHeader, Skeleton, StatCard, Table, cx, tbodyRow, td, th, theadRow } from '../../components/ui';
import { callsLabel, lastSevenDays, peakHourBars, percentOf } from '../../lib/analytics';
import { messageOr } from '../../lib/errors';
import { formatDateTime, formatDayMonth, formatMinSec, formatMmSs, formatCaller } from '../../lib/format';
import { UrgencyBreakdown } from './UrgencyBreakdown';

const PEAK_CHART_PX = 160;
const round = (n: number) => Math.round(n * 10) / 10;

function Bar({ percent, colour = 'bg-indigo-500' }: { percent: number; colour?: string }) {
  return (
    <div className="h-2.5 w-full overflow-hidden rounded-full bg-slate-100 dark:bg-slate-800">
      <div className={`h-full rounded-full ${colour}`} style={{ width: `${percent}%` }} />
    </div>
  );
}

export default function Analytics() {
  const q = useAnalytics();
  const header = <PageHeader title="Analytics" subtitle="Track call patterns and performance metrics" />;

  if (q.isLoading)
    return (
      <>
        {header}
        <div role="status">
          <p className="mb-4 text-sm text-slate-600 dark:text-slate-400">Loading analytics...</p>
          <div aria-hidden className="grid gap-4">
            <div className="grid grid-cols-2 gap-4 lg:grid-cols-4">
              {[0, 1, 2, 3].map((i) => (
                <Card key={i} className="p-5">
                  <Skeleton className="h-4 w-24" />
                  <Skeleton className="mt-3 h-8 w-16" />
                </Card>
              ))}
            </div>
            <Card className="p-5">
              <Skeleton className="h-4 w-48" />
              <Skeleton className="mt-4 h-40 w-full" />
            </Card>
          </div>
        </div>
      </>
    );
  if (q.isError || !q.data)
    return (
      <>
        {header}
        <Card>
          <ErrorState title="Unable to load analytics data" message={q.isError ? messageOr(q.error, 'Please try again.') : 'Please try again.'} onRetry={() => void q.refetch()} />
        </Card>
      </>
    );

  const a = q.data;
  if (a.totalCalls === 0)
    return (
      <>
        {header}
        <Card>
          <EmptyState icon={<BarChart3 className="h-6 w-6" />} title="No Data Yet" text="Analytics will appear here once you start receiving calls." />
        </Card>
      </>
    );

  const days = lastSevenDays(a.callsPerDay ?? {});
  const hours = peakHourBars(a.peakHours ?? {}, PEAK_CHART_PX);
  const sb = a.statusBreakdown ?? { missed: 0, answered: 0, voicemail: 0 };
  const breakdownTotal = sb.missed + sb.answered + sb.voicemail;
  const breakdown = [
    { label: 'Missed', count: sb.missed, colour: 'bg-red-500' },
    { label: 'Answered', count: sb.answered, colour: 'bg-emerald-500' },
    { label: 'Voicemail', count: sb.voicemail, colour: 'bg-sky-500' },
  ];

  return (
    <>
      {header}
      <div className="mb-6 grid grid-cols-2 gap-4 lg:grid-cols-4">
        <StatCard label="Total Calls" value={a.totalCalls} note="All time" icon={<PhoneCall className="h-4 w-4" />} />
        <StatCard label="This Month" value={a.thisMonthCalls} note="Calls received" icon={<TrendingUp className="h-4 w-4" />} />
        <StatCard label="Avg Duration" value={formatMinSec(a.avgDuration)} note="Per call" icon={<Clock className="h-4 w-4" />} />
        <StatCard label="Missed Rate" value={`${round(a.missedCallRate)}%`} note="Of all calls" icon={<PhoneMissed className="h-4 w-4" />} tone="bg-red-50 text-red-600 dark:bg-red-950 dark:text-red-300" />
      </div>

      <div className="mb-6 grid gap-6 lg:grid-cols-2">
        <Card>
          <CardHeader title="Call Volume (Last 7 Days)" />
          <ul className="grid gap-3 p-5">
            {days.map((d) => (
              <li key={d.day} className="grid grid-cols-[3.5rem_1fr_4.5rem] items-center gap-3 text-sm">
                <span className="tabular-nums text-slate-500 dark:text-slate-400">{formatDayMonth(d.day)}</span>
                <Bar percent={d.percent} />
                <span className="text-right tabular-nums">{callsLabel(d.count)}</span>
              </li>
            ))}
            {days.length === 0 && <li className="text-sm text-slate-500">No calls in the last 7 days.</li>}
          </ul>
        </Card>
        <Card>
          <CardHeader title="Call Status Breakdown" />
          <ul className="grid gap-4 p-5">
            {breakdown.map((b) => (
              <li key={b.label} className="grid gap-1.5 text-sm">
                <div className="flex justify-between">
                  <span className="font-medium">{b.label}</span>
                  <span className="tabular-nums text-slate-500 dark:text-slate-400">
                    {b.count} ({percentOf(b.count, breakdownTotal)}%)
                  </span>
                </div>
                <Bar percent={percentOf(b.count, breakdownTotal)} colour={b.colour} />
              </li>
            ))}
          </ul>
        </Card>
      </div>

      <Card className="mb-6">
        <CardHeader title="Peak Hours (24-Hour Format)" />
        {/* 24 bars fit any width: they share it (a phone gets about 11 px each), and on a phone
            only every third hour is labelled so the labels stay readable. */}
        <div className="p-4 sm:p-5">
          <div className="flex items-end gap-px sm:gap-1" style={{ height: PEAK_CHART_PX }} role="img" aria-label="Calls per hour of the day">
            {hours.map((h) => (
              <div key={h.hour} className="flex min-w-0 flex-1 flex-col items-center justify-end" title={h.tooltip}>
                <div className="w-full rounded-t bg-indigo-500 dark:bg-indigo-400" style={{ height: h.heightPx }} />
              </div>
            ))}
          </div>
          <div aria-hidden className="mt-1 flex gap-px text-center text-[11px] leading-4 text-slate-600 sm:gap-1 dark:text-slate-400">
            {hours.map((h) => (
              <span key={h.hour} className={cx('min-w-0 flex-1', h.hour % 3 !== 0 && 'max-sm:invisible')}>
                {h.hour}
              </span>
            ))}
          </div>
        </div>
      </Card>

      <div className="mb-6 grid gap-4 sm:grid-cols-2">
        <StatCard label="Notification Success Rate" value={`${round(a.notificationSuccessRate)}%`} />
        <StatCard label="Transcription Success Rate" value={`${round(a.transcriptionSuccessRate)}%`} />
      </div>

      <UrgencyBreakdown />

      {a.recentCalls?.length > 0 && (
        <Card>
          <CardHeader title="Recent Activity" />
          <Table label="Recent Activity" stackBelow="lg">
            <thead>
              <tr className={theadRow}>
                <th className={th}>From</th>
                <th className={cx(th, 'w-32')}>Status</th>
                <th className={cx(th, 'w-24')}>Duration</th>
                <th className={cx(th, 'w-44')}>Date</th>
              </tr>
            </thead>
            <tbody>
              {a.recentCalls.map((c) => (
                <tr key={c.id} className={tbodyRow}>
                  <td data-label="From" className={td}>
                    {/* Opens the call's details on Call Logs (as a link from an e-mail does). */}
                    <Link to={callDetailsPath(c.id)} className="inline-flex min-h-6 items-center font-medium text-indigo-700 underline-offset-2 hover:underline dark:text-indigo-300">
                      {formatCaller(c.fromNumber)}
                    </Link>
                  </td>
                  <td data-label="Status" className={td}>
                    <CallStatusBadge status={c.status} />
                  </td>
                  <td data-label="Duration" className={`${td} tabular-nums`}>{c.duration ? formatMmSs(c.duration) : '-'}</td>
                  <td data-label="Date" className={`${td} tabular-nums`}>{formatDateTime(c.createdAt)}</td>
                </tr>
              ))}
            </tbody>
          </Table>
        </Card>
      )}
    </>
  );
}
