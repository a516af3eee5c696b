// Account Settings' plan (issue 59), shown only when the box bills through Stripe (BILLING=stripe):
// the plan and where it stands, "Add a card" (Stripe Checkout's hosted page: no card field is
// ever drawn here), Cancel at the period's end and "Keep my plan" until then, and the invoices.
import { CreditCard } from 'lucide-react';
import { useState } from 'react';
import type { ApiBilling } from '../../../../contract/payments';
import { startBillingCheckout, useBillingChange } from '../../api/payments';
import { Badge, Button, Card, CardHeader, Table, Truncate, cx, td, tbodyRow, th, theadRow } from '../../components/ui';
import { billingReturnLine, invoiceStatus, periodEnd as periodEndOf, planActions, planState, planWords } from '../../lib/billing-words';
import { messageOr } from '../../lib/errors';
import { formatDate } from '../../lib/format';
import { formatPence } from '../../lib/money';
import { toast } from '../../toast/use-toast';
import { Confirm } from '../booking/Confirm';

function Invoices({ invoices }: { invoices: ApiBilling['invoices'] }) {
  if (invoices.length === 0) return <p className="px-5 pb-5 text-sm text-slate-600 dark:text-slate-400">No invoices yet.</p>;
  return (
    <div className="border-t border-slate-100 dark:border-slate-800">
      <h3 className="px-5 pb-2 pt-4 text-sm font-semibold">Invoices</h3>
      <Table label="Invoices">
        <thead>
          <tr className={theadRow}>
            <th className={cx(th, 'w-[30%]')}>Date</th>
            <th className={cx(th, 'w-[20%]')}>Amount</th>
            <th className={cx(th, 'w-[20%]')}>Status</th>
            <th className={cx(th, 'w-[30%]')}>Invoice</th>
          </tr>
        </thead>
        <tbody>
          {invoices.map((i) => {
            const status = invoiceStatus(i.status);
            return (
              <tr key={i.id} className={tbodyRow}>
                <td className={td} data-label="Date">{formatDate(i.date)}</td>
                <td className={cx(td, 'tabular-nums')} data-label="Amount">{formatPence(i.amountPence, i.currency)}</td>
                <td className={td} data-label="Status"><Badge tone={status.tone}>{status.text}</Badge></td>
                <td className={td} data-label="Invoice">
                  {i.hostedUrl ? (
                    <a href={i.hostedUrl} target="_blank" rel="noopener noreferrer" className="font-medium text-indigo-700 underline dark:text-indigo-300" aria-label={`View invoice of ${formatDate(i.date)} (opens Stripe)`}>
                      <Truncate text="View invoice" />
                    </a>
                  ) : (
                    <span className="text-slate-500 dark:text-slate-400">Not available</span>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </Table>
    </div>
  );
}

export function PlanSection({ billing }: { billing: ApiBilling }) {
  const change = useBillingChange();
  const [leaving, setLeaving] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const state = planState(billing);
  const actions = planActions(billing);
  const periodEnd = periodEndOf(billing);
  const returned = billingReturnLine(window.location.search, billing);

  // The browser leaves for Stripe's page; the plan changes here only when Stripe's webhook says so.
  const addCard = () => {
    setLeaving(true);
    startBillingCheckout().then(
      ({ url }) => window.location.assign(url),
      (e: unknown) => {
        setLeaving(false);
        toast({ variant: 'destructive', title: 'Error', description: messageOr(e, 'Could not open the payment page; please try again') });
      },
    );
  };
  const resume = () =>
    change.mutate('resume', {
      onSuccess: () => toast({ title: 'Your plan continues' }),
      onError: (e) => toast({ variant: 'destructive', title: 'Error', description: messageOr(e, 'Could not keep your plan; please try again') }),
    });

  return (
    <Card aria-labelledby="plan-title" data-testid="plan-section">
      <CardHeader
        title={
          <span id="plan-title" className="flex items-center gap-2">
            <CreditCard className="h-4 w-4 text-indigo-600 dark:text-indigo-400" aria-hidden />
            Your plan
          </span>
        }
        description="Cancel any time: your plan runs to the end of the period you have paid for."
      />
      <div className="grid gap-4 p-5">
        {returned && (
          <p role="status" data-testid="billing-return" className="rounded-lg border border-indigo-200 bg-indigo-50 p-3 text-sm text-indigo-900 dark:border-indigo-800 dark:bg-indigo-950 dark:text-indigo-100">
            {returned}
          </p>
        )}
        <dl className="grid gap-3 text-sm">
          <div className="grid gap-0.5 sm:grid-cols-[10rem_1fr] sm:gap-4">
            <dt className="text-slate-500 dark:text-slate-400">Plan</dt>
            <dd className="font-medium">{billing.plan ? planWords(billing.plan) : 'Not available'}</dd>
          </div>
          <div className="grid gap-0.5 sm:grid-cols-[10rem_1fr] sm:gap-4">
            <dt className="text-slate-500 dark:text-slate-400">Status</dt>
            <dd>
              <Badge tone={state.tone} wraps>
                {state.text}
              </Badge>
            </dd>
          </div>
        </dl>
        {(actions.addCard || actions.cancel || actions.resume) && (
          <div className="flex flex-wrap gap-3">
            {actions.addCard && (
              <Button onClick={addCard} disabled={leaving}>
                {leaving ? 'Opening Stripe...' : actions.addCard}
              </Button>
            )}
            {actions.resume && (
              <Button onClick={resume} disabled={change.isPending}>
                Keep my plan
              </Button>
            )}
            {actions.cancel && (
              <Button variant="outline" onClick={() => setConfirming(true)} disabled={change.isPending}>
                Cancel plan
              </Button>
            )}
          </div>
        )}
        {actions.addCard && <p className="text-xs text-slate-500 dark:text-slate-400">You add your card on Stripe’s secure page; this box never sees it.</p>}
      </div>
      <Invoices invoices={billing.invoices} />
      <Confirm
        open={confirming}
        title="Cancel your plan?"
        description={
          periodEnd
            ? `Your plan runs to the end of the period you have paid for: your line keeps answering until ${formatDate(periodEnd)}, and you can keep your plan until then. Nothing more is taken.`
            : 'Your plan runs to the end of the period you have paid for, and you can keep your plan until then. Nothing more is taken.'
        }
        confirmLabel="Cancel plan"
        keepLabel="Keep my plan"
        onConfirm={async () => {
          await change.mutateAsync('cancel');
          toast({ title: 'Plan cancelled', description: periodEnd ? `It runs until ${formatDate(periodEnd)}.` : undefined });
        }}
        onClose={() => setConfirming(false)}
      />
    </Card>
  );
}
