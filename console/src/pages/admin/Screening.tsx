// The box-wide nuisance list (issue 43): numbers that enough businesses marked SPAM, or that
// made nuisance calls to several businesses in a day. Only the number and the counts are shown:
// never which businesses, never what was said. The admin can clear an entry.
import { ShieldAlert, ShieldCheck } from 'lucide-react';
import type { ApiBoxList } from '../../../../contract/schemas/screening';
import { useBoxList, useClearBoxEntry } from '../../api/screening';
import { AdminTable, actionsHeading, type Column } from '../../components/AdminTable';
import { QueryState } from '../../components/QueryState';
import { Badge, Button, Card, EmptyState, PageHeader } from '../../components/ui';
import { ThresholdsForm } from './ThresholdsForm';
import { formatPhone } from '../../lib/format';

const businesses = (n: number) => `${n} ${n === 1 ? 'business' : 'businesses'}`;

const columns = (clear: ReturnType<typeof useClearBoxEntry>): Column<ApiBoxList['entries'][number]>[] => [
  { label: 'Number', head: 'w-[30%]', cell: 'font-medium tabular-nums', value: (e) => formatPhone(e.number) },
  { label: 'Marked spam by', cell: 'tabular-nums', value: (e) => businesses(e.businesses) },
  { label: 'Nuisance calls today', cell: 'tabular-nums', value: (e) => businesses(e.nuisanceBusinesses) },
  { label: 'Status', value: (e) => (e.listed ? <Badge tone="amber">Screened</Badge> : <Badge tone="gray">{e.clearedAt ? 'Cleared' : 'Watching'}</Badge>) },
  {
    label: 'Actions',
    heading: actionsHeading,
    head: 'w-32',
    value: (e) =>
      e.listed && (
        <Button size="sm" variant="outline" disabled={clear.isPending} onClick={() => clear.mutate(e.number)} aria-label={`Clear ${formatPhone(e.number)}`}>
          <ShieldAlert className="h-3.5 w-3.5" aria-hidden /> Clear
        </Button>
      ),
  },
];

export default function Screening() {
  const q = useBoxList();
  const clear = useClearBoxEntry();
  const entries = q.data?.entries ?? [];
  const t = q.data?.thresholds;
  return (
    <>
      <PageHeader
        title="Nuisance Numbers"
        subtitle={t ? `Screened for every business once ${t.spamMarks} businesses mark a number as spam, or ${t.nuisanceBusinesses} get nuisance calls from it in a day` : 'Numbers screened for every business on this box'}
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
          {() => <AdminTable label="Nuisance numbers" stackBelow="md" columns={columns(clear)} rows={entries} rowKey={(e) => e.number} />}
        </QueryState>
      </Card>
    </>
  );
}
