// The "Calendar" tab: the owner's calendar blocks times (a pasted iCal address, or CalDAV), and
// the box's bookings go out as a private feed. Secrets are never shown back: the API returns
// only whether an iCal address is set, and the CalDAV address and user, never the password.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Copy } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import type { ApiBookingCalendar } from '../../../../contract/schemas/booking';
import { getCalendar, regenerateFeed, setIcalAddress } from '../../api/booking';
import { keys } from '../../api/keys';
import { Button, Card, CardHeader, ErrorState, Field, Input, Skeleton } from '../../components/ui';
import { messageOr } from '../../lib/errors';
import { toast } from '../../toast/use-toast';
import { copy } from '../customer/CopyCode';
import { CalDavCard } from './CalDavCard';
import { Confirm } from './Confirm';

function IcalCard({ cal, onSaved }: { cal: ApiBookingCalendar; onSaved: (c: ApiBookingCalendar) => void }) {
  const [url, setUrl] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const save = async (value: string | null) => {
    setBusy(true);
    try {
      onSaved(await setIcalAddress(value));
      setUrl('');
      setError(null);
      toast({ title: value ? 'iCal address saved' : 'iCal address removed' });
    } catch (e) {
      setError(messageOr(e, 'Could not save the iCal address'));
    } finally {
      setBusy(false);
    }
  };
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    void save(url);
  };
  return (
    <Card aria-labelledby="ical-title">
      <CardHeader
        title={<span id="ical-title">Your calendar's iCal address</span>}
        description="Times busy in your calendar are not offered to callers. Google: Settings → your calendar → Integrate calendar → Secret address in iCal format. Outlook: Settings → Calendar → Shared calendars → Publish a calendar → ICS link."
      />
      <form onSubmit={onSubmit} className="grid gap-4 p-5">
        <p className="text-sm" role="status">{cal.icalAddressSet ? 'An iCal address is set. It is kept secret, so it is not shown; paste a new one to replace it.' : 'No iCal address set.'}</p>
        <Field label="Secret iCal address" hint="Starts with https:// or webcal://" error={error}>
          <Input type="url" inputMode="url" autoComplete="off" value={url} onChange={(e) => setUrl(e.target.value)} placeholder="https://calendar.google.com/calendar/ical/…/basic.ics" />
        </Field>
        <div className="flex flex-wrap gap-3">
          <Button type="submit" disabled={busy || !url.trim()}>Save iCal address</Button>
          {cal.icalAddressSet && <Button variant="outline" disabled={busy} onClick={() => void save(null)}>Remove iCal address</Button>}
        </div>
      </form>
    </Card>
  );
}

function FeedCard({ cal, onSaved }: { cal: ApiBookingCalendar; onSaved: (c: ApiBookingCalendar) => void }) {
  const [confirming, setConfirming] = useState(false);
  const make = async () => {
    onSaved(await regenerateFeed());
    toast({ title: cal.feedUrl ? 'New feed address made' : 'Feed address made', description: cal.feedUrl ? 'The old address no longer works.' : undefined });
  };
  return (
    <Card aria-labelledby="feed-title">
      <CardHeader title={<span id="feed-title">Your bookings in your calendar app</span>} description="Subscribe to this private address in Google, Outlook or Apple Calendar to see the bookings there. Anyone with it can read your bookings." />
      <div className="grid gap-4 p-5">
        {cal.feedUrl ? (
          <>
            <div className="flex min-w-0 items-end gap-2">
              <div className="min-w-0 flex-1">
                <Field label="Bookings feed address">
                  <Input readOnly value={cal.feedUrl} className="font-mono" onFocus={(e) => e.target.select()} />
                </Field>
              </div>
              <Button size="icon" variant="ghost" aria-label="Copy the feed address" onClick={() => void copy(cal.feedUrl!, 'Bookings feed address')}>
                <Copy className="h-4 w-4" aria-hidden />
              </Button>
            </div>
            <div>
              <Button variant="outline" onClick={() => setConfirming(true)}>Make a new address</Button>
            </div>
          </>
        ) : (
          <div>
            <Button onClick={() => void make().catch((e: unknown) => toast({ variant: 'destructive', title: 'Error', description: messageOr(e, 'Could not make the feed address') }))}>Make a feed address</Button>
          </div>
        )}
      </div>
      <Confirm
        open={confirming}
        title="Make a new feed address?"
        description="The old address stops working at once: calendars subscribed to it stop showing your bookings until you subscribe to the new one."
        confirmLabel="Make a new address"
        onConfirm={make}
        onClose={() => setConfirming(false)}
      />
    </Card>
  );
}

export function CalendarSettings() {
  const qc = useQueryClient();
  const query = useQuery({ queryKey: keys.booking.calendar, queryFn: getCalendar });
  const onSaved = (c: ApiBookingCalendar) => qc.setQueryData(keys.booking.calendar, c);
  if (query.isPending) return <Skeleton className="h-48 w-full" />;
  if (query.isError) return <ErrorState title="Unable to load your calendar settings" message={messageOr(query.error, 'Please try again')} onRetry={() => void query.refetch()} />;
  return (
    <>
      <CalDavCard cal={query.data} onSaved={onSaved} />
      <IcalCard cal={query.data} onSaved={onSaved} />
      <FeedCard cal={query.data} onSaved={onSaved} />
    </>
  );
}
