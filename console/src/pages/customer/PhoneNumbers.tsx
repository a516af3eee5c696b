import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Lightbulb, Phone, Plus, Smartphone } from 'lucide-react';
import { purchaseNumber } from '../../api/phone-numbers';
import { keys } from '../../api/keys';
import { usePhoneNumbers } from '../../api/queries';
import CallMyLine from '../../components/CallMyLine';
import { useMeta } from '../../api/session';
import { lineCodes } from '../../../../contract/forwarding-codes';
import { useLineType } from '../../lib/line-type';
import { QueryState } from '../../components/QueryState';
import { Badge, Button, Card, CardHeader, EmptyState, PageHeader } from '../../components/ui';
import { messageOr } from '../../lib/errors';
import { formatPhone } from '../../lib/format';
import { forwardingCodes } from '../../lib/forwarding';
import { toast } from '../../toast/use-toast';
import { CodeRow } from './CopyCode';
import { OwnLine } from './OwnLine';

function ForwardingGuide({ number }: { number: string }) {
  const meta = useMeta();
  const [type] = useLineType();
  const codes = forwardingCodes(number);
  return (
    <Card>
      <CardHeader title="Call Forwarding Setup" description={`Forward your business line to ${formatPhone(number)}`} />
      {type !== 'mobile' && (
        // SPEC's guide is for mobiles (a landline keypad has no +): say so, so one page never gives two answers for one line.
        <p className="mx-5 mt-5 rounded-lg bg-slate-50 p-3 text-sm text-slate-700 dark:bg-slate-800/60 dark:text-slate-300">
          These steps are for a mobile phone. For your {lineCodes(type, number).name}, use the codes in Codes for your line above.
        </p>
      )}
      <div className="grid gap-6 p-5 lg:grid-cols-2">
        <section aria-labelledby="iphone-title">
          <h3 id="iphone-title" className="mb-3 flex items-center gap-2 font-semibold">
            <Smartphone className="h-4 w-4" aria-hidden /> iPhone
          </h3>
          <ol className="mb-3 list-decimal space-y-1 pl-5 text-sm text-slate-600 dark:text-slate-400">
            <li>Open the Phone app and go to the keypad.</li>
            <li>Dial the code for the condition you want, then press call.</li>
            <li>Wait for the confirmation message from your network.</li>
          </ol>
          <ul className="grid gap-2">
            <CodeRow label="Forward unanswered calls" code={codes.unanswered} />
            <CodeRow label="Forward when busy" code={codes.busy} />
            <CodeRow label="Forward all calls" code={codes.all} />
            <CodeRow label="Cancel all forwarding" code={codes.cancel} />
          </ul>
        </section>
        <section aria-labelledby="android-title">
          <h3 id="android-title" className="mb-3 flex items-center gap-2 font-semibold">
            <Smartphone className="h-4 w-4" aria-hidden /> Android
          </h3>
          <ol className="mb-3 list-decimal space-y-1 pl-5 text-sm text-slate-600 dark:text-slate-400">
            <li>Open the Phone app, then Settings → Calling Accounts → Call Forwarding.</li>
            <li>Choose your SIM, then each condition: when unanswered, when busy, or always.</li>
            <li>Enter your forwarding number and tap Enable.</li>
            <li>Test it with a missed call from another phone.</li>
          </ol>
          <ul className="grid gap-2">
            <CodeRow label="Forwarding number" code={number} />
          </ul>
        </section>
      </div>
      <div className="mx-5 mb-5 flex gap-3 rounded-lg border border-amber-200 bg-amber-50 p-4 text-sm text-amber-900 dark:border-amber-900 dark:bg-amber-950/50 dark:text-amber-200">
        <Lightbulb className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
        <p>
          Tip: test your setup by calling your business line from another phone and letting it ring out.
          {meta.data && (
            <>
              {' '}
              Need help? Contact {meta.data.helpContact.name} at{' '}
              <a className="font-medium underline" href={`mailto:${meta.data.helpContact.email}`}>
                {meta.data.helpContact.email}
              </a>
              .
            </>
          )}
        </p>
      </div>
    </Card>
  );
}

export default function PhoneNumbers() {
  const q = usePhoneNumbers();
  const qc = useQueryClient();
  const purchase = useMutation({
    mutationFn: purchaseNumber,
    onSuccess: ({ status, body }) => {
      void qc.invalidateQueries({ queryKey: keys.phoneNumbers });
      // 200 rather than 201: the account already had its number and nothing was bought.
      if (status === 200)
        toast({
          title: 'You already have a number',
          description: body.number ? `${formatPhone(body.number.phoneNumber)} is your number; each account has one.` : 'Each account has one number.',
        });
      else toast({ title: 'Number purchased', description: 'Your new UK mobile number has been activated and configured.' });
    },
    onError: (e) => toast({ variant: 'destructive', title: 'Purchase failed', description: messageOr(e, 'Failed to purchase phone number') }),
  });
  const numbers = q.data?.numbers ?? [];
  const addButton = (label = 'Add Number') => (
    <Button onClick={() => purchase.mutate()} disabled={purchase.isPending}>
      <Plus className="h-4 w-4" aria-hidden /> {purchase.isPending ? 'Getting Number...' : label}
    </Button>
  );

  return (
    <>
      <PageHeader title="Phone Numbers" subtitle="Manage your UK mobile phone numbers" actions={addButton()} />
      <Card className="mb-6">
        <CardHeader title="Your Numbers" />
        <QueryState
          query={q}
          loading="Loading phone numbers..."
          failed="Could not load phone numbers"
          empty={
            numbers.length === 0 && (
              <EmptyState
                icon={<Phone className="h-6 w-6" />}
                title="No phone numbers yet"
                text="Get a dedicated UK mobile number and forward your business line to it."
                action={
                  <Button onClick={() => purchase.mutate()} disabled={purchase.isPending}>
                    {purchase.isPending ? 'Getting Number...' : 'Get Started'}
                  </Button>
                }
              />
            )
          }
        >
          {() => (
            <ul className="grid gap-3 p-5 sm:grid-cols-2">
              {numbers.map((n) => (
                <li key={n.phoneNumber} className="flex items-center justify-between gap-3 rounded-lg border border-slate-200 p-4 dark:border-slate-800">
                  <div className="flex items-center gap-3">
                    <span className="rounded-lg bg-indigo-50 p-2 text-indigo-600 dark:bg-indigo-950 dark:text-indigo-300">
                      <Phone className="h-4 w-4" aria-hidden />
                    </span>
                    <div>
                      <p className="font-semibold tabular-nums">{formatPhone(n.phoneNumber)}</p>
                      <p className="text-sm text-slate-500 dark:text-slate-400">{n.friendlyName}</p>
                    </div>
                  </div>
                  <Badge tone="green">Active</Badge>
                </li>
              ))}
            </ul>
          )}
        </QueryState>
      </Card>
      {/* The codes for the owner's own kind of line first; SPEC's guide (a mobile's codes) after. */}
      {numbers[0] && <OwnLine number={numbers[0].phoneNumber} />}
      {numbers[0] && <CallMyLine />}
      {numbers[0] && <ForwardingGuide number={numbers[0].phoneNumber} />}
    </>
  );
}
