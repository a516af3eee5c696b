// Usage & Costs' subscriptions (issue 59): the owners' plans by state and this London month's
// revenue, beside the number costs. Shown only when the box bills through Stripe (BILLING=stripe);
// otherwise, or while the read is out or failed, the page is SPEC's and nothing more.
import { Users } from 'lucide-react';
import { useAdminBilling } from '../../api/payments';
import { Card, CardHeader, cx } from '../../components/ui';
import { formatPence } from '../../lib/money';

function Line({ label, value, strong }: { label: string; value: string | number; strong?: boolean }) {
  return (
    <div className={cx('flex justify-between gap-4 py-1.5 text-sm', strong && 'font-semibold')}>
      <dt className={strong ? undefined : 'text-slate-500 dark:text-slate-400'}>{label}</dt>
      <dd className="tabular-nums">{value}</dd>
    </div>
  );
}

export function SubscriptionsCard() {
  const q = useAdminBilling();
  const b = q.data;
  if (!b?.enabled) return null;
  return (
    <Card className="mb-6" aria-labelledby="subscriptions-title" data-testid="subscriptions-card">
      <CardHeader
        title={
          <span id="subscriptions-title" className="flex items-center gap-2">
            <Users className="h-4 w-4 text-indigo-600 dark:text-indigo-400" aria-hidden />
            Subscriptions
          </span>
        }
        description="Owners' plans through Stripe, and what they paid this month"
      />
      <dl className="divide-y divide-slate-100 px-5 py-3 dark:divide-slate-800">
        <Line label="Trialling" value={b.trialling} />
        <Line label="Active" value={b.active} />
        <Line label="Past due" value={b.pastDue} />
        <Line label="Cancelled" value={b.cancelled} />
        <Line label="This month's revenue" value={formatPence(b.monthlyRevenuePence, b.currency)} strong />
      </dl>
    </Card>
  );
}
