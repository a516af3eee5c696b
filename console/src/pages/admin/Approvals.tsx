import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CheckCircle2, XCircle } from 'lucide-react';
import type { ApiUser } from '../../../../contract/api';
import { apiRequest } from '../../api/client';
import { keys } from '../../api/keys';
import { useApprovals } from '../../api/queries';
import { Badge, Button, Card, EmptyState, ErrorState, PageHeader, Spinner, Table, cx, tbodyRow, td, th, theadRow } from '../../components/ui';
import { messageOr } from '../../lib/errors';
import { NA, formatRelative } from '../../lib/format';
import { toast } from '../../toast/use-toast';

function Address({ u }: { u: ApiUser }) {
  if (u.addressLine1) {
    return (
      <address className="not-italic leading-5">
        <span className="block">{u.addressLine1}</span>
        {u.addressLine2 && <span className="block">{u.addressLine2}</span>}
        <span className="block">
          {u.city}, {u.postcode}
        </span>
        {u.country && <span className="block">{u.country}</span>}
      </address>
    );
  }
  return <>{u.businessAddress || NA}</>;
}

export default function Approvals() {
  const q = useApprovals();
  const qc = useQueryClient();
  const refresh = () => void qc.invalidateQueries({ queryKey: keys.admin.all });

  const approve = useMutation({
    mutationFn: (id: number) => apiRequest('POST', `/api/admin/approvals/${id}/approve`),
    onSuccess: () => {
      refresh();
      toast({ title: 'User Approved', description: 'Approval email has been sent to the user.' });
    },
    onError: (e) => toast({ variant: 'destructive', title: 'Approval Failed', description: messageOr(e, 'Failed to approve user') }),
  });
  const reject = useMutation({
    mutationFn: (id: number) => apiRequest('POST', `/api/admin/approvals/${id}/reject`),
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
          <Table label="Pending sign-up requests">
            <thead>
              <tr className={theadRow}>
                <th className={th}>Business Name</th>
                <th className={th}>Industry</th>
                <th className={th}>Weekly Calls</th>
                <th className={th}>Business Email (Login)</th>
                <th className={th}>Notification Number</th>
                <th className={th}>Business Address</th>
                <th className={th}>Date Submitted</th>
                <th className={th}>
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {users.map((u) => (
                <tr key={u.id} className={tbodyRow}>
                  <td className={cx(td, 'font-medium')}>{u.businessName || NA}</td>
                  <td className={cx(td, 'capitalize')}>{u.industry || NA}</td>
                  <td className={td}>{u.weeklyCustomerCalls || NA}</td>
                  <td className={td}>{u.businessEmail || u.email}</td>
                  <td className={cx(td, 'whitespace-nowrap')}>{u.forwardToNumber || u.notificationNumber || NA}</td>
                  <td className={td}>
                    <Address u={u} />
                  </td>
                  <td className={cx(td, 'whitespace-nowrap')}>{formatRelative(u.createdAt)}</td>
                  <td className={td}>
                    <div className="flex justify-end gap-2">
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
