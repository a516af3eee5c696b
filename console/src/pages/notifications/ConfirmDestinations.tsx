// Notification Settings: a new notification number or summary e-mail takes effect only once the
// owner types the code sent there. One small form per destination waiting; nothing when none is.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ShieldCheck } from 'lucide-react';
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { PendingDestination } from '../../../../contract/schemas/destinations';
import { confirmDestination, destinationsKey, getPendingDestinations } from '../../api/destinations';
import { keys } from '../../api/keys';
import { Button, Card, CardHeader, Field, Input } from '../../components/ui';
import { messageOr } from '../../lib/errors';
import { toast } from '../../toast/use-toast';

/** The code box for one destination waiting; `focusOnShow` takes the owner to it (they have just saved the new destination). */
export function ConfirmOne({ pending, focusOnShow = false, onConfirmed }: { pending: PendingDestination; focusOnShow?: boolean; onConfirmed?: (destination: string) => void }) {
  const qc = useQueryClient();
  const [code, setCode] = useState('');
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (!focusOnShow) return;
    input.current?.scrollIntoView({ block: 'center' });
    input.current?.focus({ preventScroll: true });
  }, [focusOnShow]);
  const sms = pending.kind === 'sms';
  const confirm = useMutation({
    mutationFn: () => confirmDestination({ kind: pending.kind, code: code.trim() }),
    onSuccess: (data) => {
      setCode('');
      onConfirmed?.(pending.destination);
      void qc.invalidateQueries({ queryKey: keys.me });
      toast({ title: data.message });
    },
    onError: (e) => toast({ variant: 'destructive', title: 'Error', description: messageOr(e, 'Could not check the code') }),
  });
  const submit = () => {
    if (code.trim() && !confirm.isPending) confirm.mutate();
  };
  // Not a <form>: the Delivery section shows it inside its own settings form, and forms do not nest.
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key !== 'Enter') return;
    e.preventDefault();
    submit();
  };
  return (
    <div role="group" aria-label={`Confirm ${pending.destination}`} className="flex flex-wrap items-end gap-3">
      <div className="min-w-56 flex-1">
        <Field
          label={`Code sent to ${pending.destination}`}
          hint={sms ? 'Until you confirm it, notifications go where they went before.' : 'Until you confirm it, summaries go where they went before.'}
        >
          <Input ref={input} value={code} onChange={(e) => setCode(e.target.value)} onKeyDown={onKeyDown} inputMode="numeric" autoComplete="one-time-code" maxLength={20} placeholder="123456" />
        </Field>
      </div>
      <Button type="button" onClick={submit} disabled={confirm.isPending || !code.trim()}>
        {confirm.isPending ? 'Checking...' : 'Confirm'}
      </Button>
    </div>
  );
}

/** Every destination waiting, above the sections (the Delivery section shows its own beside its fields instead). */
export default function ConfirmDestinations() {
  const pending = useQuery({ queryKey: destinationsKey, queryFn: getPendingDestinations });
  const list = pending.data?.pending ?? [];
  if (list.length === 0) return null;
  return (
    <Card className="mb-6">
      <CardHeader
        title={
          <span className="flex items-center gap-2">
            <ShieldCheck className="h-5 w-5 text-amber-600" aria-hidden />
            Confirm where notifications go
          </span>
        }
        description="We sent a 6-digit code to each new number or address. Enter it here to start using it."
      />
      <div className="grid gap-4 p-5">
        {list.map((p) => (
          <ConfirmOne key={`${p.kind}-${p.destination}`} pending={p} />
        ))}
      </div>
    </Card>
  );
}
