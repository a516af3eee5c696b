// Deposits (issue 59): the owner connects their own Stripe account with a restricted key, writes
// the deposit policy callers are texted, and says whether a caller's cancellation is refunded.
// The key goes to the server once and is never shown back: only its last four characters.
import { CreditCard } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import type { ApiStripeConnection, ApiStripeConnectionUpdate, ApiStripeTest } from '../../../../contract/payments';
import { PAYMENT_LIMITS } from '../../../../contract/rules';
import { useStripeActions, useStripeConnection } from '../../api/payments';
import { SwitchRow } from '../../components/SwitchRow';
import { useFollowing } from '../../components/use-following';
import { Badge, Button, Card, CardHeader, ErrorState, Field, Input, Skeleton, Textarea, cx } from '../../components/ui';
import { fieldErrors, messageOr } from '../../lib/errors';
import { formatDateTime } from '../../lib/format';
import { toast } from '../../toast/use-toast';
import { Confirm } from './Confirm';
import { stripeKeyWarning } from './stripe-key-warning';

/** How to make the key, with only the rights the box uses (docs/payments.md). */
function KeyHelp() {
  return (
    <details className="rounded-lg border border-slate-200 p-3 text-sm dark:border-slate-800">
      <summary className="cursor-pointer font-medium">How to make a restricted key</summary>
      <ol className="mt-2 list-decimal space-y-1 pl-5 text-slate-600 dark:text-slate-400">
        <li>In your Stripe Dashboard open Developers, then API keys, and choose “Create restricted key”.</li>
        <li>
          Give it only these rights, and leave everything else at None: <strong className="text-slate-800 dark:text-slate-200">Checkout Sessions: Write</strong>,{' '}
          <strong className="text-slate-800 dark:text-slate-200">Refunds: Write</strong> and <strong className="text-slate-800 dark:text-slate-200">Webhook Endpoints: Write</strong>.
        </li>
        <li>Create it, copy the key (it starts rk_live_, or rk_test_ to try things out) and paste it here.</li>
      </ol>
      <p className="mt-2 text-slate-600 dark:text-slate-400">
        Callers pay on Stripe’s own page: we never see or store a card number. Deposits go straight to your Stripe account.
      </p>
    </details>
  );
}

function Connected({ c }: { c: ApiStripeConnection }) {
  return (
    <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm" data-testid="stripe-connected">
      <Badge tone="green">Connected</Badge>
      {c.accountLabel && <span className="min-w-0 break-words font-medium">{c.accountLabel}</span>}
      {c.keyEnding && <span>Key ending {c.keyEnding}</span>}
      {!c.livemode && <Badge tone="amber">Test mode</Badge>}
      {c.testedAt && <span className="text-slate-500 dark:text-slate-400">Last tested {formatDateTime(c.testedAt)}</span>}
    </div>
  );
}

function PaymentsForm({ c }: { c: ApiStripeConnection }) {
  const { save, test, disconnect } = useStripeActions();
  const [secretKey, setSecretKey] = useState('');
  const [policy, setPolicy] = useFollowing(c.depositPolicy ?? '');
  const [refund, setRefund] = useFollowing(c.refundOnCallerCancel);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [problem, setProblem] = useState<string | null>(null);
  const [result, setResult] = useState<ApiStripeTest | null>(null);
  const [confirming, setConfirming] = useState(false);
  const busy = save.isPending || test.isPending;

  const body = (): ApiStripeConnectionUpdate => ({
    ...(secretKey.trim() ? { secretKey: secretKey.trim() } : {}),
    depositPolicy: policy.trim() ? policy.trim() : null,
    refundOnCallerCancel: refund,
  });
  const refused = (e: unknown, fallback: string) => {
    setErrors(fieldErrors(e));
    setProblem(messageOr(e, fallback));
  };
  const saveNow = async () => {
    setErrors({});
    setProblem(null);
    setResult(null);
    await save.mutateAsync(body());
    setSecretKey('');
  };
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    saveNow().then(
      () => toast({ title: 'Payments saved' }),
      (err: unknown) => refused(err, 'Could not save your payment settings'),
    );
  };
  // A key typed and not yet saved is saved first: "Test connection" tests what the box will use.
  const onTest = () => {
    const run = async () => {
      if (secretKey.trim()) await saveNow();
      setResult(null);
      setResult(await test.mutateAsync());
    };
    run().catch((err: unknown) => refused(err, 'Could not test the connection; please try again'));
  };

  return (
    <form onSubmit={onSubmit} className="grid gap-5 p-5">
      {c.connected ? <Connected c={c} /> : <p className="text-sm text-slate-600 dark:text-slate-400">Not connected yet. Paste your key, Save, then Test connection: deposits are taken once the test passes.</p>}
      {stripeKeyWarning(c) && (
        <p role="note" data-testid="stripe-full-key" className="rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100">
          {stripeKeyWarning(c)}
        </p>
      )}
      <Field
        label={c.connected ? 'Replace the Stripe restricted key' : 'Stripe restricted key'}
        hint={c.connected ? 'Leave empty to keep the saved key.' : 'Starts rk_live_ (or rk_test_ to try it out).'}
        error={errors.secretKey}
      >
        <Input
          type="password"
          autoComplete="off"
          spellCheck={false}
          placeholder={c.connected ? '••••••••' : 'rk_live_…'}
          value={secretKey}
          onChange={(e) => setSecretKey(e.target.value)}
        />
      </Field>
      <KeyHelp />
      <Field
        label="Your deposit policy"
        hint={`Sent in the confirmation text, e.g. “Deposits are refunded if you cancel at least 24 hours before.” ${policy.length} of ${PAYMENT_LIMITS.policyMaxChars} characters.`}
        error={errors.depositPolicy}
      >
        <Textarea rows={3} maxLength={PAYMENT_LIMITS.policyMaxChars} value={policy} onChange={(e) => setPolicy(e.target.value)} />
      </Field>
      <SwitchRow
        label="Refund the deposit when a caller cancels"
        text="Off: a caller who cancels loses the deposit, as your policy says. A booking you cancel is always refunded."
        checked={refund}
        onChange={setRefund}
      />
      <div aria-live="polite">
        {result && (
          <p
            data-testid="stripe-test-result"
            className={cx('rounded-md p-3 text-sm', result.ok ? 'bg-emerald-50 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-200' : 'bg-red-50 text-red-900 dark:bg-red-950 dark:text-red-200')}
          >
            {result.message}
          </p>
        )}
        {problem && (
          <p role="alert" className="text-sm font-medium text-red-600 dark:text-red-400">
            {problem}
          </p>
        )}
      </div>
      <div className="flex flex-wrap gap-3">
        <Button type="submit" disabled={busy || (!c.connected && !secretKey.trim())}>
          {save.isPending ? 'Saving...' : 'Save'}
        </Button>
        <Button variant="outline" disabled={busy || (!c.connected && !secretKey.trim())} onClick={onTest}>
          {test.isPending ? 'Testing...' : 'Test connection'}
        </Button>
        {c.connected && (
          <Button variant="outline" disabled={busy} onClick={() => setConfirming(true)}>
            Disconnect
          </Button>
        )}
      </div>
      <Confirm
        open={confirming}
        title="Disconnect Stripe?"
        description="Callers are no longer sent a link to pay a deposit. Deposits already paid stay in your Stripe account, and the key is deleted from this box."
        confirmLabel="Disconnect"
        keepLabel="Stay connected"
        onConfirm={async () => {
          await disconnect();
          setResult(null);
          toast({ title: 'Stripe disconnected' });
        }}
        onClose={() => setConfirming(false)}
      />
    </form>
  );
}

/** The Payments card on Bookings → Services and hours. */
export function PaymentsCard() {
  const query = useStripeConnection();
  return (
    <Card aria-labelledby="payments-title">
      <CardHeader
        title={
          <span id="payments-title" className="flex items-center gap-2">
            <CreditCard className="h-4 w-4 text-indigo-600 dark:text-indigo-400" aria-hidden />
            Payments
          </span>
        }
        description="Take a deposit when a caller books: they get a text with a Stripe payment link and the time is held until they pay."
      />
      {query.isPending ? (
        <div className="p-5">
          <Skeleton className="h-24 w-full" />
        </div>
      ) : query.isError ? (
        <ErrorState title="Unable to load your payment settings" message={messageOr(query.error, 'Please try again')} onRetry={() => void query.refetch()} />
      ) : (
        <PaymentsForm c={query.data} />
      )}
    </Card>
  );
}
