// The box-wide nuisance list (issue 43): numbers that enough businesses marked SPAM, or that
// made nuisance calls to several businesses in a day. Only the number and the counts are shown:
// never which businesses, never what was said. The admin can clear an entry.
import { ShieldAlert, ShieldCheck } from 'lucide-react';
import { useBoxList, useClearBoxEntry } from '../../api/screening';
import { Badge, Button, Card, EmptyState, ErrorState, PageHeader, Spinner, Table, cx, tbodyRow, td, th, theadRow } from '../../components/ui';
import { ThresholdsForm } from './ThresholdsForm';
import { messageOr } from '../../lib/errors';
import { formatPhone } from '../../lib/format';

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
        {q.isLoading ? (
          <Spinner label="Loading the nuisance list..." />
        ) : q.isError ? (
          <ErrorState title="Could not load the nuisance list" message={messageOr(q.error, 'Please try again.')} onRetry={() => void q.refetch()} />
        ) : entries.length === 0 ? (
          <EmptyState icon={<ShieldCheck className="h-6 w-6 text-emerald-500" />} title="No nuisance numbers" text="Numbers that businesses mark as spam will appear here." />
        ) : (
          <Table label="Nuisance numbers" stackBelow="md">
            <thead>
              <tr className={theadRow}>
                <th className={cx(th, 'w-[30%]')}>Number</th>
                <th className={th}>Marked spam by</th>
                <th className={th}>Nuisance calls today</th>
                <th className={th}>Status</th>
                <th className={cx(th, 'w-32')}>
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {entries.map((e) => (
                <tr key={e.number} className={tbodyRow}>
                  <td data-label="Number" className={cx(td, 'font-medium tabular-nums')}>{formatPhone(e.number)}</td>
                  <td data-label="Marked spam by" className={cx(td, 'tabular-nums')}>{`${e.businesses} ${e.businesses === 1 ? 'business' : 'businesses'}`}</td>
                  <td data-label="Nuisance calls today" className={cx(td, 'tabular-nums')}>{`${e.nuisanceBusinesses} ${e.nuisanceBusinesses === 1 ? 'business' : 'businesses'}`}</td>
                  <td data-label="Status" className={td}>
                    {e.listed ? <Badge tone="amber">Screened</Badge> : <Badge tone="gray">{e.clearedAt ? 'Cleared' : 'Watching'}</Badge>}
                  </td>
                  <td data-label="Actions" className={td}>
                    {e.listed && (
                      <Button size="sm" variant="outline" disabled={clear.isPending} onClick={() => clear.mutate(e.number)} aria-label={`Clear ${formatPhone(e.number)}`}>
                        <ShieldAlert className="h-3.5 w-3.5" aria-hidden /> Clear
                      </Button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </Table>
        )}
      </Card>
    </>
  );
}
