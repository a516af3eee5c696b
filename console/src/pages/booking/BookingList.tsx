// Today's and upcoming bookings, by London day, as cards (they fit a 375 px phone): cancel
// (asked first) or move to a new date and time; the server texts the caller either way.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { CalendarDays } from 'lucide-react';
import { useState } from 'react';
import type { ApiBooking } from '../../../../contract/schemas/booking';
import { cancelBooking, getBookings } from '../../api/booking';
import { keys } from '../../api/keys';
import { Badge, Button, Card, CardHeader, EmptyState, ErrorState, Skeleton } from '../../components/ui';
import { groupByLondonDay, londonTime } from '../../lib/booking-days';
import { messageOr } from '../../lib/errors';
import { formatPhone } from '../../lib/format';
import { toast } from '../../toast/use-toast';
import { Confirm } from './Confirm';
import { MoveDialog } from './MoveDialog';

function BookingCard({ b, onCancel, onMove }: { b: ApiBooking; onCancel: () => void; onMove: () => void }) {
  const live = b.status === 'booked';
  return (
    <li className="min-w-0 rounded-lg border border-slate-200 p-4 dark:border-slate-800" aria-label={`${londonTime(b.start)} ${b.serviceName}, ${b.callerName}`}>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <p className="font-semibold tabular-nums">{londonTime(b.start)}–{londonTime(b.end)}</p>
        {!live && <Badge tone="gray">Cancelled</Badge>}
      </div>
      <p className="mt-1 break-words text-sm">{b.serviceName}</p>
      <p className="mt-1 break-words text-sm text-slate-600 dark:text-slate-400">
        {b.callerName} · <a className="underline" href={`tel:${b.callerNumber}`}>{formatPhone(b.callerNumber)}</a>
      </p>
      {live && (
        <div className="mt-3 flex flex-wrap gap-2">
          <Button size="sm" variant="outline" onClick={onMove} aria-label={`Move ${b.callerName}'s booking`}>Move</Button>
          <Button size="sm" variant="outline" onClick={onCancel} aria-label={`Cancel ${b.callerName}'s booking`}>Cancel</Button>
        </div>
      )}
    </li>
  );
}

export function BookingList() {
  const qc = useQueryClient();
  // Callers book while the page is open: read again on each visit and every minute.
  const query = useQuery({ queryKey: keys.booking.list, queryFn: getBookings, refetchOnMount: 'always', refetchInterval: 60_000 });
  const [cancelling, setCancelling] = useState<ApiBooking | null>(null);
  const [moving, setMoving] = useState<ApiBooking | null>(null);
  let body;
  if (query.isPending) body = <Skeleton className="h-32 w-full" />;
  else if (query.isError) body = <ErrorState title="Unable to load bookings" message={messageOr(query.error, 'Please try again')} onRetry={() => void query.refetch()} />;
  else if (query.data.bookings.length === 0) body = <EmptyState icon={<CalendarDays className="h-6 w-6" />} title="No bookings yet" text="Bookings your agent makes during calls, and those you make from Call Details, appear here." />;
  else
    body = (
      <div className="grid grid-cols-1 gap-6">
        {groupByLondonDay(query.data.bookings).map((g) => (
          <section key={g.day} aria-labelledby={`day-${g.day}`} className="min-w-0">
            <h3 id={`day-${g.day}`} className="mb-2 text-sm font-semibold text-slate-700 dark:text-slate-300">{g.label}</h3>
            <ul className="grid grid-cols-1 gap-3 md:grid-cols-2 xl:grid-cols-3" aria-label={`Bookings ${g.label}`}>
              {g.items.map((b) => <BookingCard key={b.id} b={b} onCancel={() => setCancelling(b)} onMove={() => setMoving(b)} />)}
            </ul>
          </section>
        ))}
      </div>
    );
  return (
    <Card aria-labelledby="bookings-title">
      <CardHeader title={<span id="bookings-title">Today and upcoming</span>} description="Move or cancel a booking: the caller is sent a text" />
      <div className="p-5">{body}</div>
      <Confirm
        open={cancelling !== null}
        title="Cancel this booking?"
        description={cancelling ? `${cancelling.serviceName} for ${cancelling.callerName}, ${cancelling.spoken}. The caller is sent a text saying it is cancelled.` : ''}
        confirmLabel="Cancel booking"
        onConfirm={async () => {
          try {
            await cancelBooking(cancelling!.id);
            toast({ title: 'Booking cancelled', description: 'The caller is sent a text.' });
          } finally {
            void qc.invalidateQueries({ queryKey: keys.booking.list });
          }
        }}
        onClose={() => setCancelling(null)}
      />
      {moving && <MoveDialog booking={moving} onClose={() => setMoving(null)} />}
    </Card>
  );
}
