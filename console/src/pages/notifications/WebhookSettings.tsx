// Notification Settings → Webhooks: the owner's HTTPS URL for their other tools, the signing
// secret (with rotation), "Send Test Event" and the delivery log. Saved on its own, apart from
// the page's "Save Changes" form.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Copy, RefreshCw, Send, Webhook } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import type { ApiWebhookDelivery, ApiWebhookSettings } from '../../../../contract/webhooks';
import { getWebhook, rotateWebhookSecret, saveWebhook, testWebhook } from '../../api/webhook';
import { keys } from '../../api/keys';
import { Badge, Button, Card, CardHeader, ErrorState, Field, Input, Skeleton, Table, Truncate, cx, td, th, theadRow, tbodyRow } from '../../components/ui';
import { messageOr } from '../../lib/errors';
import { formatDateTime } from '../../lib/format';
import { anyPending, deliveryEvent, deliveryState, WEBHOOK_LOG_REFRESH_MS } from '../../lib/webhooks';
import { toast } from '../../toast/use-toast';
import { useFollowing } from '../../components/use-following';

function DeliveryLog({ deliveries }: { deliveries: ApiWebhookDelivery[] }) {
  if (deliveries.length === 0) return <p className="text-sm text-slate-500 dark:text-slate-400">No deliveries yet.</p>;
  return (
    <Table label="Webhook deliveries" stackBelow="xl">
      <thead>
        <tr className={theadRow}>
          <th className={cx(th, 'w-32')}>Event</th>
          <th className={cx(th, 'w-28')}>Status</th>
          <th className={cx(th, 'w-24')}>Attempts</th>
          <th className={cx(th, 'w-20')}>HTTP</th>
          <th className={th}>Last Error</th>
          <th className={cx(th, 'w-44')}>Updated</th>
        </tr>
      </thead>
      <tbody>
        {deliveries.map((d) => {
          const state = deliveryState(d);
          return (
            <tr key={d.id} className={tbodyRow}>
              <td data-label="Event" className={td}>{deliveryEvent(d)}</td>
              <td data-label="Status" className={td}>
                <Badge tone={state.tone}>{state.label}</Badge>
              </td>
              <td data-label="Attempts" className={cx(td, 'tabular-nums')}>{d.attempts}</td>
              <td data-label="HTTP" className={cx(td, 'tabular-nums')}>{d.httpStatus ?? '-'}</td>
              <td data-label="Last Error" className={cx(td, 'min-w-0')}>{d.lastError ? <Truncate text={d.lastError} /> : '-'}</td>
              <td data-label="Updated" className={cx(td, 'tabular-nums')}>{formatDateTime(d.updatedAt ?? d.createdAt)}</td>
            </tr>
          );
        })}
      </tbody>
    </Table>
  );
}

export default function WebhookSettings() {
  const qc = useQueryClient();
  const query = useQuery({
    queryKey: keys.webhook,
    queryFn: getWebhook,
    refetchInterval: (q) => (q.state.data && anyPending(q.state.data.deliveries) ? WEBHOOK_LOG_REFRESH_MS : false),
  });
  const [error, setError] = useState<string | null>(null);
  const savedUrl = query.data?.url ?? '';
  // The field follows what the server holds until the owner types.
  const [url, setUrl] = useFollowing(savedUrl);

  const done = (data: { webhook: ApiWebhookSettings; message: string }) => {
    qc.setQueryData(keys.webhook, data.webhook);
    toast({ title: data.message });
  };
  const save = useMutation({
    mutationFn: saveWebhook,
    onSuccess: (data) => {
      setError(null);
      done(data);
    },
    onError: (e) => {
      const message = messageOr(e, 'Failed to save the webhook');
      setError(message);
      toast({ variant: 'destructive', title: 'Error', description: message });
    },
  });
  const rotate = useMutation({
    mutationFn: rotateWebhookSecret,
    onSuccess: done,
    onError: (e) => toast({ variant: 'destructive', title: 'Error', description: messageOr(e, 'Failed to rotate the secret') }),
  });
  const test = useMutation({
    mutationFn: testWebhook,
    onSuccess: (data) => {
      toast({ title: data.message });
      void qc.invalidateQueries({ queryKey: keys.webhook });
    },
    onError: (e) => toast({ variant: 'destructive', title: 'Error', description: messageOr(e, 'Failed to send a test event') }),
  });

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate({ url: url.trim() ? url.trim() : null });
  };
  const copySecret = async () => {
    if (!query.data) return;
    try {
      await navigator.clipboard.writeText(query.data.secret);
      toast({ title: 'Secret copied' });
    } catch {
      toast({ variant: 'destructive', title: 'Error', description: 'Copy the secret from the field instead' });
    }
  };

  return (
    <Card aria-labelledby="webhooks-title">
      <CardHeader
        title={
          <span id="webhooks-title" className="flex items-center gap-2">
            <Webhook className="h-5 w-5 text-indigo-600 dark:text-indigo-400" aria-hidden /> Webhooks
          </span>
        }
        description="Send each finished call to your other tools (Zapier, Make, ServiceM8, Housecall Pro) as signed JSON"
      />
      <div className="grid gap-5 p-5">
        {query.isPending ? (
          <Skeleton className="h-24 w-full" />
        ) : query.isError ? (
          <ErrorState title="Could not load your webhook" message={messageOr(query.error, 'Failed to load the webhook')} onRetry={() => void query.refetch()} />
        ) : (
          <>
            <form onSubmit={onSubmit} className="grid gap-3">
              <Field label="Webhook URL" hint="An https:// address from your other tool. Leave empty to turn webhooks off." error={error}>
                <Input type="url" inputMode="url" value={url} onChange={(e) => setUrl(e.target.value)} placeholder="https://hooks.zapier.com/hooks/catch/123/abc/" autoComplete="off" spellCheck={false} />
              </Field>
              <div className="flex flex-wrap justify-end gap-2">
                <Button type="button" variant="outline" disabled={!savedUrl || test.isPending} onClick={() => test.mutate()}>
                  <Send className="h-4 w-4" aria-hidden /> {test.isPending ? 'Sending...' : 'Send Test Event'}
                </Button>
                <Button type="submit" disabled={save.isPending}>
                  {save.isPending ? 'Saving...' : 'Save Webhook'}
                </Button>
              </div>
            </form>
            <Field label="Signing Secret" hint="Each request carries an X-CallKeeper-Signature header made with this secret; your tool checks it to know the call came from here.">
              <Input readOnly value={query.data.secret} className="font-mono text-xs" onFocus={(e) => e.currentTarget.select()} />
            </Field>
            <div className="flex flex-wrap justify-end gap-2">
              <Button type="button" variant="ghost" size="sm" onClick={() => void copySecret()}>
                <Copy className="h-4 w-4" aria-hidden /> Copy Secret
              </Button>
              <Button type="button" variant="outline" size="sm" disabled={rotate.isPending} onClick={() => rotate.mutate()}>
                <RefreshCw className="h-4 w-4" aria-hidden /> Rotate Secret
              </Button>
            </div>
            <section aria-labelledby="webhook-log-title" className="grid gap-3">
              <h3 id="webhook-log-title" className="text-sm font-semibold">
                Delivery Log
              </h3>
              <DeliveryLog deliveries={query.data.deliveries} />
            </section>
          </>
        )}
      </div>
    </Card>
  );
}
