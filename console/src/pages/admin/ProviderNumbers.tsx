import { useMutation, useQueryClient } from '@tanstack/react-query';
import { AlertTriangle, Download, Hash, PiggyBank, PoundSterling, RefreshCw, Trash2 } from 'lucide-react';
import { useMemo, useState } from 'react';
import type { ApiProviderNumber } from '../../../../contract/api';
import { releaseNumber } from '../../api/admin';
import { keys } from '../../api/keys';
import { useProviderNumbers } from '../../api/queries';
import { Dialog } from '../../components/Dialog';
import { AdminTable, type Column } from '../../components/AdminTable';
import { SearchToolbar } from '../../components/SearchToolbar';
import { Badge, Button, Card, EmptyState, ErrorState, PageHeader, Spinner, StatCard, Truncate, cx, type BadgeTone } from '../../components/ui';
import { messageOr } from '../../lib/errors';
import { capitalise, formatAdminPhone, formatGBP, formatRelative } from '../../lib/format';
import { usePhoneQuery } from '../../lib/phone-search';
import { csvFileName, filterNumbers, NUMBER_FILTERS, numbersCsv, numberStatus, savingsFilter, type NumberFilter } from '../../lib/numbers';
import { yearlySavings } from '../../lib/usage';
import { toast } from '../../toast/use-toast';

const STATUS_TONE: Record<string, BadgeTone> = { Unassigned: 'gray', Expired: 'red', Pending: 'amber', 'Trial Ending Soon': 'amber', Active: 'green' };

function download(name: string, text: string) {
  const url = URL.createObjectURL(new Blob([`\uFEFF${text}`], { type: 'text/csv;charset=utf-8' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

function ReleaseDialog({ provider, target, onClose }: { provider: string; target: ApiProviderNumber | null; onClose: () => void }) {
  const qc = useQueryClient();
  const release = useMutation({
    mutationFn: (n: ApiProviderNumber) => releaseNumber(provider, n),
    onSuccess: (res) => {
      void qc.invalidateQueries({ queryKey: keys.admin.numbers(provider) });
      void qc.invalidateQueries({ queryKey: keys.admin.usage(provider) });
      toast({ title: 'Number Released', description: res?.message });
      onClose();
    },
    onError: (e) => toast({ variant: 'destructive', title: 'Release Failed', description: messageOr(e, 'Failed to release number') }),
  });
  const u = target?.assignedUser;
  return (
    <Dialog open={target !== null} onClose={onClose} title="Release Phone Number?" description="Please review before releasing this number.">
      {target && (
        <div className="grid gap-4">
          <dl className="grid grid-cols-[7rem_1fr] gap-y-1.5 rounded-lg bg-slate-50 p-4 text-sm dark:bg-slate-800/60">
            <dt className="text-slate-500 dark:text-slate-400">Number</dt>
            <dd className="font-medium tabular-nums">{formatAdminPhone(target.phoneNumber)}</dd>
            <dt className="text-slate-500 dark:text-slate-400">Business</dt>
            <dd className="font-medium">{u ? u.businessName || u.email : 'Unassigned'}</dd>
            <dt className="text-slate-500 dark:text-slate-400">Status</dt>
            <dd className="font-medium">{numberStatus(u ?? null)}</dd>
            <dt className="text-slate-500 dark:text-slate-400">Monthly Cost</dt>
            <dd className="font-medium">{formatGBP(target.monthlyCost)}/mo</dd>
          </dl>
          <div className="rounded-lg border border-red-200 bg-red-50 p-4 text-sm text-red-800 dark:border-red-900 dark:bg-red-950/50 dark:text-red-200">
            <p className="mb-2 font-semibold">Releasing this number will:</p>
            <ul className="list-disc space-y-1 pl-5">
              <li>Release the number from {capitalise(provider)}</li>
              <li>Disconnect it from the customer account</li>
              <li>Save {formatGBP(target.monthlyCost)}/month</li>
              <li>The number cannot be recovered</li>
            </ul>
          </div>
          <div className="flex justify-end gap-2">
            <Button variant="outline" onClick={onClose}>
              Cancel
            </Button>
            <Button variant="danger" disabled={release.isPending} onClick={() => release.mutate(target)}>
              {release.isPending ? 'Releasing...' : 'Yes, Release Number'}
            </Button>
          </div>
        </div>
      )}
    </Dialog>
  );
}

const columns = (release: (n: ApiProviderNumber) => void): Column<ApiProviderNumber>[] => [
  { label: 'Phone Number', head: 'w-[17%]', cell: 'whitespace-nowrap font-medium tabular-nums', value: (n) => formatAdminPhone(n.phoneNumber) },
  {
    label: 'Assigned To',
    head: 'w-[29%]',
    value: (n) =>
      n.assignedUser ? (
        <>
          <Truncate className="font-medium" text={n.assignedUser.businessName || n.assignedUser.email} />
          <Truncate className="text-xs text-slate-600 dark:text-slate-400" text={n.assignedUser.businessEmail ?? n.assignedUser.email} />
        </>
      ) : (
        <span className="text-slate-500 dark:text-slate-400">Unassigned</span>
      ),
  },
  {
    label: 'Status',
    head: 'w-[15%]',
    value: (n) => {
      const status = numberStatus(n.assignedUser);
      return <Badge tone={STATUS_TONE[status] ?? 'gray'}>{status}</Badge>;
    },
  },
  { label: 'Monthly Cost', head: 'w-[12%]', cell: 'tabular-nums', value: (n) => `${formatGBP(n.monthlyCost)}/mo` },
  { label: 'Purchase Date', head: 'w-[13%]', cell: 'whitespace-nowrap', value: (n) => formatRelative(n.dateCreated) },
  {
    label: 'Release',
    head: 'w-32 text-right',
    cell: 'text-right',
    value: (n) => (
      <Button size="sm" variant="outline" onClick={() => release(n)} aria-label={`Release ${n.phoneNumber}`}>
        <Trash2 className="h-3.5 w-3.5 text-red-600" aria-hidden /> Release
      </Button>
    ),
  },
];

export default function ProviderNumbers({ provider }: { provider: string }) {
  const q = useProviderNumbers(provider);
  const [filter, setFilter] = useState<NumberFilter>('all');
  const [search, setSearch] = useState('');
  const [releasing, setReleasing] = useState<ApiProviderNumber | null>(null);
  const numbers = useMemo(() => q.data?.numbers ?? [], [q.data]);
  const phone = usePhoneQuery(search);
  const shown = useMemo(() => filterNumbers(numbers, filter, search, phone), [numbers, filter, search, phone]);
  const stats = q.data?.stats;
  const name = capitalise(provider);

  const exportCsv = () => {
    download(csvFileName(provider), numbersCsv(shown));
    toast({ title: 'Export Complete', description: `Exported ${shown.length} numbers to CSV` });
  };

  return (
    <>
      <PageHeader
        title="Telephony Number Management"
        subtitle={`Monitor costs and optimize your ${name} spending`}
        actions={
          <>
            <Button variant="outline" onClick={() => void q.refetch()} disabled={q.isFetching}>
              <RefreshCw className={cx('h-4 w-4', q.isFetching && 'animate-spin')} aria-hidden /> Refresh
            </Button>
            <Button onClick={exportCsv} disabled={!q.data}>
              <Download className="h-4 w-4" aria-hidden /> Export CSV
            </Button>
          </>
        }
      />
      {q.isLoading ? (
        <Spinner label="Loading numbers..." />
      ) : q.isError || !stats ? (
        <Card>
          <ErrorState title="Error Loading Data" message={messageOr(q.error, `Failed to fetch ${name} numbers`)} onRetry={() => void q.refetch()} />
        </Card>
      ) : (
        <>
          <div className="mb-6 grid gap-4 sm:grid-cols-3">
            <StatCard label="Active Numbers" value={stats.activeNumbers} note={`Billing: ${formatGBP(stats.totalMonthlyCost)}/month`} icon={<Hash className="h-4 w-4" />} />
            <StatCard label="Total Monthly Cost" value={formatGBP(stats.totalMonthlyCost)} note={`${formatGBP(stats.monthlyUnitCost)} per number`} icon={<PoundSterling className="h-4 w-4" />} />
            <StatCard
              label="Potential Savings"
              value={formatGBP(stats.potentialSavings)}
              note={`Release ${stats.expiredNumbers + stats.unassignedNumbers} unused numbers`}
              icon={<PiggyBank className="h-4 w-4" />}
              tone="bg-emerald-50 text-emerald-600 dark:bg-emerald-950 dark:text-emerald-300"
            />
          </div>

          {stats.potentialSavings > 0 && (
            <div role="alert" className="mb-6 flex flex-col gap-3 rounded-xl border border-amber-200 bg-amber-50 p-4 sm:flex-row sm:items-center sm:justify-between dark:border-amber-900 dark:bg-amber-950/40">
              <div className="flex gap-3">
                <AlertTriangle className="mt-0.5 h-5 w-5 shrink-0 text-amber-600" aria-hidden />
                <div>
                  <p className="font-semibold text-amber-900 dark:text-amber-200">Cost Optimization Opportunity</p>
                  <p className="text-sm text-amber-800 dark:text-amber-300">
                    You have {stats.expiredNumbers + stats.unassignedNumbers} unused numbers costing {formatGBP(stats.potentialSavings)}/month. Release them to save{' '}
                    {formatGBP(yearlySavings(stats.potentialSavings))}/year!
                  </p>
                </div>
              </div>
              <Button variant="outline" onClick={() => setFilter(savingsFilter(stats.expiredNumbers))}>
                Show {stats.expiredNumbers > 0 ? 'Expired' : 'Unassigned'} Numbers
              </Button>
            </div>
          )}

          <Card>
            <SearchToolbar
              className="flex flex-col gap-3 border-b border-slate-100 p-4 sm:flex-row dark:border-slate-800"
              search={search}
              onSearch={setSearch}
              searchLabel="Search numbers"
              placeholder="Search by business or number..."
              filter={filter}
              onFilter={setFilter}
              filterLabel="Filter numbers"
              filters={NUMBER_FILTERS}
              filterClassName="sm:w-48"
            />
            {shown.length === 0 ? (
              <EmptyState icon={<Hash className="h-6 w-6" />} title="No numbers found matching your filters" />
            ) : (
              <AdminTable label="Phone numbers" stackBelow="xl" columns={columns(setReleasing)} rows={shown} rowKey={(n) => n.phoneNumber} />
            )}
          </Card>
        </>
      )}
      <ReleaseDialog provider={provider} target={releasing} onClose={() => setReleasing(null)} />
    </>
  );
}
