import { useMutation } from '@tanstack/react-query';
import { CalendarClock } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { newPasswordError } from '../../../../contract/rules';
import { changePassword } from '../../api/auth';
import { useBilling } from '../../api/payments';
import { useSession } from '../../api/session';
import { Badge, Button, Card, CardHeader, Field, Input, PageHeader, cx } from '../../components/ui';
import { messageOr } from '../../lib/errors';
import { capitalise, formatDate, formatDateTime } from '../../lib/format';
import { accountTrialBadge } from '../../lib/account-state';
import { toast } from '../../toast/use-toast';
import { PlanSection } from './PlanSection';

function Info({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="grid gap-0.5 sm:grid-cols-[10rem_1fr] sm:gap-4">
      <dt className="text-sm text-slate-500 dark:text-slate-400">{label}</dt>
      <dd className="break-words text-sm font-medium">{children}</dd>
    </div>
  );
}

function ChangePassword() {
  const [currentPassword, setCurrent] = useState('');
  const [newPassword, setNew] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<{ newPassword?: string; confirm?: string }>({});

  const change = useMutation({
    mutationFn: () => changePassword(currentPassword, newPassword),
    onSuccess: () => {
      setCurrent('');
      setNew('');
      setConfirm('');
      toast({ title: 'Password Changed' });
    },
    onError: (e) => toast({ variant: 'destructive', title: 'Error', description: messageOr(e, 'Failed to change password') }),
  });

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const next = newPassword !== confirm ? { confirm: 'New passwords do not match' } : { newPassword: newPasswordError(newPassword) ?? undefined };
    setErrors(next);
    if (!next.confirm && !next.newPassword) change.mutate();
  };

  return (
    <Card>
      <CardHeader title="Change Password" description="You will stay signed in here; other devices are signed out." />
      <form onSubmit={onSubmit} className="grid gap-4 p-5 sm:max-w-md">
        <Field label="Current Password">
          <Input type="password" value={currentPassword} onChange={(e) => setCurrent(e.target.value)} autoComplete="current-password" />
        </Field>
        <Field label="New Password" error={errors.newPassword}>
          <Input type="password" value={newPassword} onChange={(e) => setNew(e.target.value)} autoComplete="new-password" />
        </Field>
        <Field label="Confirm New Password" error={errors.confirm}>
          <Input type="password" value={confirm} onChange={(e) => setConfirm(e.target.value)} autoComplete="new-password" />
        </Field>
        <Button type="submit" disabled={!currentPassword || !newPassword || !confirm || change.isPending}>
          {change.isPending ? 'Changing Password...' : 'Change Password'}
        </Button>
      </form>
    </Card>
  );
}

export default function Account() {
  const { user } = useSession();
  const billing = useBilling();
  if (!user) return null;
  // With BILLING=stripe the plan section says where the trial stands and offers a card; without it
  // (or while its read is out or failed) the page is SPEC's, trial box and all.
  const plan = billing.data?.enabled ? billing.data : null;
  const trial = !plan && user.role !== 'admin' && user.trialExpiresAt ? accountTrialBadge(user.accountStatus, user.trialExpiresAt) : null;

  return (
    <>
      <PageHeader title="Account Settings" subtitle="Your account details and password" />
      <div className="grid gap-6">
        <Card>
          <CardHeader title="Account Information" />
          <dl className="grid gap-4 p-5">
            <Info label="Email">{user.email}</Info>
            <Info label="Role">{capitalise(user.role)}</Info>
            {user.businessName && <Info label="Business Name">{user.businessName}</Info>}
            <Info label="Member Since">{formatDate(user.createdAt)}</Info>
          </dl>
        </Card>

        {trial && user.trialExpiresAt && (
          <Card
            data-testid="trial-status"
            className={cx(trial.urgent && 'border-amber-300 bg-amber-50/60 dark:border-amber-800 dark:bg-amber-950/30', trial.expired && 'border-red-300 bg-red-50/60 dark:border-red-900 dark:bg-red-950/30')}
          >
            <div className="flex flex-wrap items-center justify-between gap-3 p-5">
              <div className="flex items-center gap-3">
                <CalendarClock className="h-5 w-5 text-indigo-600 dark:text-indigo-400" aria-hidden />
                <div>
                  <h2 className="font-semibold">Trial Status</h2>
                  <p className="text-sm text-slate-500 dark:text-slate-400">Expires {formatDateTime(user.trialExpiresAt)}</p>
                </div>
              </div>
              <Badge tone={trial.expired ? 'red' : trial.urgent ? 'amber' : 'green'}>{trial.text}</Badge>
            </div>
            {trial.expired && <p className="px-5 pb-5 text-sm text-red-700 dark:text-red-300">Contact support to extend your trial or upgrade your account.</p>}
          </Card>
        )}

        {plan && <PlanSection billing={plan} />}

        <ChangePassword />
      </div>
    </>
  );
}
