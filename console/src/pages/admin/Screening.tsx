// The box-wide nuisance list (issues 43, 53): numbers that enough businesses marked SPAM, counted
// now from the marks (a suspended business's marks and marks older than the window never count).
// The table shows the number and the count only; "Why" shows the admin the marks behind one
// number (which business, when, whether it counts). The admin can clear an entry.
import { useState } from 'react';
import { Info, ShieldAlert, ShieldCheck } from 'lucide-react';
import type { ApiBoxList, ApiBoxMarks } from '../../../../contract/schemas/screening';
import { useBoxList, useBoxMarks, useClearBoxEntry } from '../../api/screening';
import { AdminTable, actionsHeading, type Column } from '../../components/AdminTable';
import { QueryState } from '../../components/QueryState';
import { Badge, Button, Card, CardHeader, EmptyState, PageHeader } from '../../components/ui';
import { ThresholdsForm } from './ThresholdsForm';
import { formatDateTime, formatPhone } from '../../lib/format';

const businesses = (n: number) => `${n} ${n === 1 ? 'business' : 'businesses'}`;

const STANDING: Record<ApiBoxMarks['marks'][number]['standing'], string> = {
  counts: 'Counts',
  'owner-not-active': 'Not counted: the business is not active',
  'before-clearing': 'Not counted: made before the number was cleared',
  expired: 'Not counted: older than the window',
};

type Entry = ApiBoxList['entries'][number];

const columns = (clear: ReturnType<typeof useClearBoxEntry>, why: (number: string) => void): Column<Entry>[] => [
  { label: 'Number', head: 'w-[30%]', cell: 'font-medium tabular-nums', value: (e) => formatPhone(e.number) },
  { label: 'Marked spam by', cell: 'tabular-nums', value: (e) => businesses(e.businesses) },
  { label: 'Status', value: (e) => (e.listed ? <Badge tone="amber">Screened</Badge> : <Badge tone="gray">{e.clearedAt ? 'Cleared' : 'Watching'}</Badge>) },
  {
    label: 'Actions',
    heading: actionsHeading,
    head: 'w-48',
    value: (e) => (
      <div className="flex gap-2">
        <Button size="sm" variant="outline" onClick={() => why(e.number)} aria-label={`Why ${formatPhone(e.number)}`}>
          <Info className="h-3.5 w-3.5" aria-hidden /> Why
        </Button>
        {e.listed && (
          <Button size="sm" variant="outline" disabled={clear.isPending} onClick={() => clear.mutate(e.number)} aria-label={`Clear ${formatPhone(e.number)}`}>
            <ShieldAlert className="h-3.5 w-3.5" aria-hidden /> Clear
          </Button>
        )}
      </div>
    ),
  },
];

/** The marks behind one number, for the admin alone. */
function WhyListed({ number }: { number: string }) {
  const q = useBoxMarks(number);
  const shown = formatPhone(number);
  return (
    <Card className="mt-6" aria-label={`Why ${shown}`}>
      <CardHeader
        title={`Why ${shown}`}
        description={q.data ? `${businesses(q.data.businesses)} counted; a mark counts for ${q.data.windowDays} days while its business is active${q.data.clearedAt ? `, and only if made after the clearing on ${formatDateTime(q.data.clearedAt)}` : ''}.` : undefined}
      />
      <QueryState query={q} loading="Loading the marks..." failed="Could not load the marks">
        {() => (
          <ul className="divide-y divide-slate-100 px-5 pb-4 dark:divide-slate-800">
            {(q.data?.marks ?? []).map((m) => (
              <li key={`${m.userId}-${m.markedAt}`} className="flex flex-wrap justify-between gap-2 py-2 text-sm">
                <span className="font-medium">{m.businessName ?? `Business ${m.userId}`}</span>
                <span className="tabular-nums text-slate-600 dark:text-slate-400">{formatDateTime(m.markedAt)}</span>
                <Badge tone={m.standing === 'counts' ? 'amber' : 'gray'}>{STANDING[m.standing]}</Badge>
              </li>
            ))}
          </ul>
        )}
      </QueryState>
    </Card>
  );
}

export default function Screening() {
  const q = useBoxList();
  const clear = useClearBoxEntry();
  const [why, setWhy] = useState<string | null>(null);
  const entries = q.data?.entries ?? [];
  const t = q.data?.thresholds;
  return (
    <>
      <PageHeader
        title="Nuisance Numbers"
        subtitle={t ? `Screened for every business once ${t.spamMarks} active businesses mark a number as spam` : 'Numbers screened for every business on this box'}
        actions={q.data ? <Badge tone={q.data.listed ? 'amber' : 'green'} className="!text-sm">{`${q.data.listed} screened`}</Badge> : undefined}
      />
      {t && <ThresholdsForm stored={t} />}
      <Card>
        <QueryState
          query={q}
          loading="Loading the nuisance list..."
          failed="Could not load the nuisance list"
          empty={entries.length === 0 && <EmptyState icon={<ShieldCheck className="h-6 w-6 text-emerald-500" />} title="No nuisance numbers" text="Numbers that businesses mark as spam will appear here." />}
        >
          {() => <AdminTable label="Nuisance numbers" stackBelow="md" columns={columns(clear, setWhy)} rows={entries} rowKey={(e) => e.number} />}
        </QueryState>
      </Card>
      {why && <WhyListed number={why} />}
    </>
  );
}
