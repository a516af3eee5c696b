import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CheckCircle2, XCircle } from 'lucide-react';
import type { ApiUser } from '../../../../contract/api';
import { approveSignup, rejectSignup } from '../../api/admin';
import { keys } from '../../api/keys';
import { useApprovals } from '../../api/queries';
import { Badge, Button, Card, EmptyState, ErrorState, PageHeader, Spinner, Table, Truncate, cx, tbodyRow, td, th, theadRow } from '../../components/ui';
import { messageOr } from '../../lib/errors';
import { NA, formatRelative } from '../../lib/format';
import { toast } from '../../toast/use-toast';

function Address({ u }: { u: ApiUser }) {
  if (u.addressLine1) {
    return (
      <address className="not-italic leading-5">
        <Truncate text={u.addressLine1} />
        {u.addressLine2 && <Truncate text={u.addressLine2} />}
        <Truncate text={`${u.city}, ${u.postcode}`} />
        {u.country && <Truncate text={u.country} />}
      </address>
    );
  }
  return <Truncate text={u.businessAddress || NA} />;
}

export default function Approvals() {
  const q = useApprovals();
  const qc = useQueryClient();
  const refresh = () => void qc.invalidateQueries({ queryKey: keys.admin.all });

  const approve = useMutation({
    mutationFn: approveSignup,
    onSuccess: () => {
      refresh();
      toast({ title: 'User Approved', description: 'Approval email has been sent to the user.' });
    },
    onError: (e) => toast({ variant: 'destructive', title: 'Approval Failed', description: messageOr(e, 'Failed to approve user') }),
  });
  const reject = useMutation({
    mutationFn: rejectSignup,
    onSuccess: () => {
      refresh();
      toast({ title: 'User Rejected', description: 'User has been notified of the decision.' });
    },
    onError: (e) => toast({ variant: 'destructive', title: 'Rejection Failed', description: messageOr(e, 'Failed to reject user') }),
  });

  const users = q.data?.users ?? [];
  const busy = approve.isPending || reject.isPending;
  const n = users.length;

  return (
    <>
      <PageHeader
        title="Signup Approvals"
        subtitle="Review and approve new business signups"
        actions={q.data ? <Badge tone={n ? 'amber' : 'green'} className="!text-sm">{`${n} Pending Approval${n === 1 ? '' : 's'}`}</Badge> : undefined}
      />
      <Card>
        {q.isLoading ? (
          <Spinner label="Loading sign-up requests..." />
        ) : q.isError ? (
          <ErrorState title="Could not load sign-up requests" message={messageOr(q.error, 'Please try again.')} onRetry={() => void q.refetch()} />
        ) : n === 0 ? (
          <EmptyState icon={<CheckCircle2 className="h-6 w-6 text-emerald-500" />} title="All caught up!" text="No pending signup requests at the moment." />
        ) : (
          <Table label="Pending sign-up requests" stackBelow="xl">
            <thead>
              <tr className={theadRow}>
                <th className={cx(th, 'w-[13%]')}>Business Name</th>
                <th className={cx(th, 'w-[10%]')}>Industry</th>
                <th className={cx(th, 'w-[8%]')}>Weekly Calls</th>
                <th className={cx(th, 'w-[18%]')}>Business Email (Login)</th>
                <th className={cx(th, 'w-[13%]')}>Notification Number</th>
                <th className={cx(th, 'w-[16%]')}>Business Address</th>
                <th className={cx(th, 'w-[10%]')}>Date Submitted</th>
                <th className={cx(th, 'w-32')}>
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {users.map((u) => (
                <tr key={u.id} className={tbodyRow}>
                  <td data-label="Business Name" className={cx(td, 'font-medium')}>
                    <Truncate text={u.businessName || NA} />
                  </td>
                  <td data-label="Industry" className={cx(td, 'capitalize')}>
                    <Truncate text={u.industry || NA} />
                  </td>
                  <td data-label="Weekly Calls" className={td}>{u.weeklyCustomerCalls || NA}</td>
                  <td data-label="Business Email (Login)" className={td}>
                    <Truncate text={u.businessEmail || u.email} />
                  </td>
                  <td data-label="Notification Number" className={td}>
                    <Truncate text={u.forwardToNumber || u.notificationNumber || NA} />
                  </td>
                  <td data-label="Business Address" className={td}>
                    <Address u={u} />
                  </td>
                  <td data-label="Date Submitted" className={td}>{formatRelative(u.createdAt)}</td>
                  <td data-label="Actions" className={td}>
                    <div className="flex flex-col items-stretch gap-2">
                      <Button size="sm" variant="success" disabled={busy} onClick={() => approve.mutate(u.id)} aria-label={`Approve ${u.businessName || u.email}`}>
                        <CheckCircle2 className="h-3.5 w-3.5" aria-hidden /> Approve
                      </Button>
                      <Button size="sm" variant="outline" disabled={busy} onClick={() => reject.mutate(u.id)} aria-label={`Reject ${u.businessName || u.email}`}>
                        <XCircle className="h-3.5 w-3.5 text-red-600" aria-hidden /> Reject
                      </Button>
                    </div>
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
