// The "Calendar" tab: the owner's calendar blocks times (a pasted iCal address, or CalDAV), and
// the box's bookings go out as a private feed. It leads with "Which calendar do you use?" and
// that provider's own steps (calendar-providers.tsx), and says when the connected calendar has
// stopped answering. Secrets are never shown back: the API returns only whether an iCal address
// is set, and the CalDAV address and user, never the password.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { AlertTriangle, CalendarDays, Copy } from 'lucide-react';
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
import { ICLOUD_CALDAV, PROVIDER_CARDS, PROVIDERS, ProviderSteps, type CalendarProvider } from './calendar-providers';
import { RadioCard } from '../notifications/RadioCard';

function IcalCard({ cal, onSaved }: { cal: ApiBookingCalendar; onSaved: (c: ApiBookingCalendar) => void }) {
  const [url, setUrl] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [found, setFound] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const save = async (value: string | null) => {
    setBusy(true);
    setFound(null);
    try {
      const saved = await setIcalAddress(value);
      onSaved(saved);
      setUrl('');
      setError(null);
      setFound(saved.icalFound ?? null);
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
        description="Times busy in your calendar are not offered to callers. The box reads the address when you save it and tells you what it found."
      />
      <form onSubmit={onSubmit} className="grid gap-4 p-5">
        <p className="text-sm" role="status">{cal.icalAddressSet ? 'An iCal address is set. It is kept secret, so it is not shown; paste a new one to replace it.' : 'No iCal address set.'}</p>
        {found && <p className="rounded-md bg-emerald-50 p-3 text-sm text-emerald-900 dark:bg-emerald-950 dark:text-emerald-200" role="status">{found}</p>}
        <Field label="Secret iCal address" hint="Starts with https:// or webcal://" error={error}>
          <Input type="url" inputMode="url" autoComplete="off" value={url} onChange={(e) => setUrl(e.target.value)} placeholder="https://calendar.google.com/calendar/ical/…/basic.ics" />
        </Field>
        <div className="flex flex-wrap gap-3">
          <Button type="submit" disabled={busy || !url.trim()}>{busy && url.trim() ? 'Reading your calendar…' : 'Save iCal address'}</Button>
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

/** The connected calendar has stopped answering: since when, and what the box does meanwhile. */
function TroubleNote({ trouble }: { trouble: NonNullable<ApiBookingCalendar['trouble']> }) {
  return (
    <div role="alert" className="flex gap-3 rounded-lg border border-amber-300 bg-amber-50 p-4 text-sm text-amber-950 dark:border-amber-700 dark:bg-amber-950/50 dark:text-amber-100">
      <AlertTriangle className="mt-0.5 h-5 w-5 shrink-0" aria-hidden />
      <div className="grid min-w-0 gap-1 [overflow-wrap:anywhere]">
        <p className="font-semibold">Your calendar stopped answering {whenSaid(trouble.since)}</p>
        <p>The last try: {trouble.reason}.</p>
        <p>Meanwhile callers cannot be given times: the agent takes a booking request instead, and you are told of each one to book from Call Details. Booking goes back to normal by itself once your calendar answers.</p>
      </div>
    </div>
  );
}

/** "at 14:02" today, else "on Tue 1 Dec at 14:02" (the owner's own clock, as the rest of the console). */
function whenSaid(iso: string): string {
  const at = new Date(iso);
  const time = at.toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit' });
  if (at.toDateString() === new Date().toDateString()) return `at ${time}`;
  return `on ${at.toLocaleDateString('en-GB', { weekday: 'short', day: 'numeric', month: 'short' })} at ${time}`;
}

/** The provider a connected calendar shows as; none when only an iCal address says nothing of who publishes it. */
const providerOf = (cal: ApiBookingCalendar): CalendarProvider | null => (cal.caldav ? (/icloud\.com/i.test(cal.caldav.url) ? 'icloud' : 'other') : null);

function ProviderChoice({ cal, onSaved }: { cal: ApiBookingCalendar; onSaved: (c: ApiBookingCalendar) => void }) {
  const [chosen, setChosen] = useState<CalendarProvider | null>(null);
  const provider = chosen ?? providerOf(cal);
  const cards = provider ? PROVIDER_CARDS[provider] : null;
  return (
    <>
      <Card aria-labelledby="provider-title">
        <CardHeader title={<span id="provider-title">Which calendar do you use?</span>} description="Times busy in your own calendar are never offered to callers. Pick yours for the steps." />
        <div className="grid gap-4 p-5">
          <fieldset className="grid gap-2 sm:grid-cols-2">
            <legend className="sr-only">Which calendar do you use?</legend>
            {PROVIDERS.map((p) => (
              <RadioCard key={p.id} name="calendar-provider" value={p.id} current={provider ?? ('' as CalendarProvider)} onChange={setChosen} title={p.title} text={p.text} icon={<CalendarDays className="h-5 w-5" aria-hidden />} />
            ))}
          </fieldset>
          {provider && <ProviderSteps provider={provider} />}
        </div>
      </Card>
      {/* A calendar already connected stays in view whatever is picked, so it can always be disconnected or replaced. */}
      {(cards?.caldav || cal.caldav) && <CalDavCard key={provider} cal={cal} onSaved={onSaved} defaultAddress={provider === 'icloud' ? ICLOUD_CALDAV : ''} />}
      {(cards?.ical || cal.icalAddressSet) && <IcalCard cal={cal} onSaved={onSaved} />}
    </>
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
      {query.data.trouble && <TroubleNote trouble={query.data.trouble} />}
      <ProviderChoice cal={query.data} onSaved={onSaved} />
      <FeedCard cal={query.data} onSaved={onSaved} />
    </>
  );
}
