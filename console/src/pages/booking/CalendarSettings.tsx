// The "Calendar" tab: the owner's calendar blocks times (a pasted iCal address, or CalDAV), and
// the box's bookings go out as a private feed. It leads with "Which calendar do you use?" and
// that provider's own steps (calendar-providers.tsx), and says when the connected calendar has
// stopped answering. Secrets are never shown back: the API returns only whether an iCal address
// is set, and the CalDAV address and user, never the password.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { AlertTriangle, Copy } from 'lucide-react';
import { useState } from 'react';
import type { ApiBookingCalendar } from '../../../../contract/schemas/booking';
import { getCalendar, regenerateFeed } from '../../api/booking';
import { keys } from '../../api/keys';
import { Button, Card, CardHeader, ErrorState, Field, Input, Skeleton } from '../../components/ui';
import { messageOr } from '../../lib/errors';
import { toast } from '../../toast/use-toast';
import { copy } from '../customer/CopyCode';
import { CalendarChoice } from './CalendarChoice';
import { OWNER_CALENDAR } from './calendar-requests';
import { Confirm } from './Confirm';

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

export function CalendarSettings() {
  const qc = useQueryClient();
  const query = useQuery({ queryKey: keys.booking.calendar, queryFn: getCalendar });
  const onSaved = (c: ApiBookingCalendar) => qc.setQueryData(keys.booking.calendar, c);
  if (query.isPending) return <Skeleton className="h-48 w-full" />;
  if (query.isError) return <ErrorState title="Unable to load your calendar settings" message={messageOr(query.error, 'Please try again')} onRetry={() => void query.refetch()} />;
  return (
    <>
      {query.data.trouble && <TroubleNote trouble={query.data.trouble} />}
      <CalendarChoice cal={query.data} onSaved={onSaved} requests={OWNER_CALENDAR} />
      <FeedCard cal={query.data} onSaved={onSaved} />
    </>
  );
}
