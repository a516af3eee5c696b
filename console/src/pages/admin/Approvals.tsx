import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CheckCircle2, XCircle } from 'lucide-react';
import type { ApiUser } from '../../../../contract/api';
import { approveSignup, rejectSignup } from '../../api/admin';
import { keys } from '../../api/keys';
import { useApprovals } from '../../api/queries';
import { AdminTable, actionsHeading, type Column } from '../../components/AdminTable';
import { QueryState } from '../../components/QueryState';
import { Badge, Button, Card, EmptyState, PageHeader, Truncate } from '../../components/ui';
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
  const columns: Column<ApiUser>[] = [
    { label: 'Business Name', head: 'w-[13%]', cell: 'font-medium', value: (u) => <Truncate text={u.businessName || NA} /> },
    { label: 'Industry', head: 'w-[10%]', cell: 'capitalize', value: (u) => <Truncate text={u.industry || NA} /> },
    { label: 'Weekly Calls', head: 'w-[8%]', value: (u) => u.weeklyCustomerCalls || NA },
    { label: 'Business Email (Login)', head: 'w-[18%]', value: (u) => <Truncate text={u.businessEmail || u.email} /> },
    { label: 'Notification Number', head: 'w-[13%]', value: (u) => <Truncate text={u.forwardToNumber || u.notificationNumber || NA} /> },
    { label: 'Business Address', head: 'w-[16%]', value: (u) => <Address u={u} /> },
    { label: 'Date Submitted', head: 'w-[10%]', value: (u) => formatRelative(u.createdAt) },
    {
      label: 'Actions',
      heading: actionsHeading,
      head: 'w-32',
      value: (u) => (
        <div className="flex flex-col items-stretch gap-2">
          <Button size="sm" variant="success" disabled={busy} onClick={() => approve.mutate(u.id)} aria-label={`Approve ${u.businessName || u.email}`}>
            <CheckCircle2 className="h-3.5 w-3.5" aria-hidden /> Approve
          </Button>
          <Button size="sm" variant="outline" disabled={busy} onClick={() => reject.mutate(u.id)} aria-label={`Reject ${u.businessName || u.email}`}>
            <XCircle className="h-3.5 w-3.5 text-red-600" aria-hidden /> Reject
          </Button>
        </div>
      ),
    },
  ];

  return (
    <>
      <PageHeader
        title="Signup Approvals"
        subtitle="Review and approve new business signups"
        actions={q.data ? <Badge tone={n ? 'amber' : 'green'} className="!text-sm">{`${n} Pending Approval${n === 1 ? '' : 's'}`}</Badge> : undefined}
      />
      <Card>
        <QueryState
          query={q}
          loading="Loading sign-up requests..."
          failed="Could not load sign-up requests"
          empty={n === 0 && <EmptyState icon={<CheckCircle2 className="h-6 w-6 text-emerald-500" />} title="All caught up!" text="No pending signup requests at the moment." />}
        >
          {() => <AdminTable label="Pending sign-up requests" stackBelow="xl" columns={columns} rows={users} rowKey={(u) => u.id} />}
        </QueryState>
      </Card>
    </>
  );
}
