// Today's and upcoming bookings, by London day, as cards (they fit a 375 px phone): cancel
// (asked first) or move to a new date and time; the server texts the caller either way. Moving and
// cancelling are the owner's: a staff member's sign-in (issue 58) reads the list only.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { CalendarDays } from 'lucide-react';
import { useState } from 'react';
import type { ApiBooking } from '../../../../contract/schemas/booking';
import { cancelBooking, getBookings, getPersonBookings } from '../../api/booking';
import { useSession } from '../../api/session';
import { keys } from '../../api/keys';
import { Badge, Button, Card, CardHeader, EmptyState, ErrorState, Skeleton } from '../../components/ui';
import { groupByLondonDay, londonTime } from '../../lib/booking-days';
import { depositTone, depositWords } from '../../lib/deposit-words';
import { messageOr } from '../../lib/errors';
import { formatPhone } from '../../lib/format';
import { toast } from '../../toast/use-toast';
import { PersonFilter, usePersonParam } from '../../components/PersonFilter';
import { useMediaQuery } from '../../components/use-media-query';
import { columnsByPerson, peopleOf, type Attributed } from '../../lib/team';

/** Wide enough for the day view's column per person. */
const WIDE = '(min-width: 1024px)';
import { Confirm } from './Confirm';
import { MoveDialog } from './MoveDialog';

function BookingCard({ b, onCancel, onMove, showPerson, owner }: { b: ApiBooking; onCancel: () => void; onMove: () => void; showPerson: boolean; owner: boolean }) {
  const live = b.status === 'booked';
  const person = showPerson ? (b as ApiBooking & Attributed).staffName : null;
  return (
    <li className="min-w-0 rounded-lg border border-slate-200 p-4 dark:border-slate-800" aria-label={`${londonTime(b.start)} ${b.serviceName}, ${b.callerName}`}>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <p className="font-semibold tabular-nums">{londonTime(b.start)}–{londonTime(b.end)}</p>
        <span className="flex flex-wrap gap-2">
          {b.depositState && <Badge tone={depositTone(b.depositState)} wraps>{depositWords(b.depositState, b.depositDueAt)}</Badge>}
          {!live && <Badge tone="gray">Cancelled</Badge>}
        </span>
      </div>
      <p className="mt-1 break-words text-sm">
        {b.serviceName}
        {person && <span className="font-medium"> with {person}</span>}
      </p>
      <p className="mt-1 break-words text-sm text-slate-600 dark:text-slate-400">
        {b.callerName} · <a className="underline" href={`tel:${b.callerNumber}`}>{formatPhone(b.callerNumber)}</a>
      </p>
      {live && owner && (
        <div className="mt-3 flex flex-wrap gap-2">
          <Button size="sm" variant="outline" onClick={onMove} aria-label={`Move ${b.callerName}'s booking`}>Move</Button>
          <Button size="sm" variant="outline" onClick={onCancel} aria-label={`Cancel ${b.callerName}'s booking`}>Cancel</Button>
        </div>
      )}
    </li>
  );
}

/** One day on a wide screen: a column per person, each headed by their name. */
function PersonColumns({ columns, day, card }: { columns: { key: string; name: string; items: ApiBooking[] }[]; day: string; card: (b: ApiBooking) => React.ReactNode }) {
  return (
    <div className="grid gap-3" style={{ gridTemplateColumns: `repeat(${columns.length}, minmax(0, 1fr))` }} data-testid="person-columns">
      {columns.map((c) => (
        <div key={c.key} className="min-w-0">
          <h4 className="mb-2 truncate text-xs font-semibold uppercase tracking-wide text-slate-600 dark:text-slate-400">{c.name}</h4>
          <ul className="grid grid-cols-1 gap-3" aria-label={`${c.name}'s bookings ${day}`}>
            {c.items.map(card)}
          </ul>
        </div>
      ))}
    </div>
  );
}

export function BookingList() {
  const qc = useQueryClient();
  const owner = useSession().staff === null;
  // Callers book while the page is open: read again on each visit and every minute.
  const query = useQuery({ queryKey: keys.booking.list, queryFn: getBookings, refetchOnMount: 'always', refetchInterval: 60_000 });
  // The person filter (?staffId=) reads one person's bookings; its choices are the people the whole list names.
  const [staffId, setStaffId] = usePersonParam();
  const person = useQuery({
    queryKey: [...keys.booking.list, 'staff', staffId],
    queryFn: ({ signal }) => getPersonBookings(staffId!, signal),
    enabled: staffId !== null,
    refetchOnMount: 'always',
    refetchInterval: 60_000,
  });
  const people = peopleOf(query.data?.bookings ?? []);
  const byPerson = people.length > 1 || staffId !== null;
  const shown = staffId === null ? query : person;
  // A wide screen lays each day out in a column per person; a phone keeps one list.
  const columns = useMediaQuery(WIDE) && byPerson && staffId === null;
  const [cancelling, setCancelling] = useState<ApiBooking | null>(null);
  const [moving, setMoving] = useState<ApiBooking | null>(null);
  let body;
  const card = (b: ApiBooking) => <BookingCard key={b.id} b={b} onCancel={() => setCancelling(b)} onMove={() => setMoving(b)} showPerson={byPerson} owner={owner} />;
  if (shown.isPending) body = <Skeleton className="h-32 w-full" />;
  else if (shown.isError) body = <ErrorState title="Unable to load bookings" message={messageOr(shown.error, 'Please try again')} onRetry={() => void shown.refetch()} />;
  else if (shown.data.bookings.length === 0) body = <EmptyState icon={<CalendarDays className="h-6 w-6" />} title="No bookings yet" text={owner ? 'Bookings your agent makes during calls, and those you make from Call Details, appear here.' : 'Bookings the agent or the owner makes appear here.'} />;
  else
    body = (
      <div className="grid grid-cols-1 gap-6">
        {groupByLondonDay(shown.data.bookings).map((g) => (
          <section key={g.day} aria-labelledby={`day-${g.day}`} className="min-w-0">
            <h3 id={`day-${g.day}`} className="mb-2 text-sm font-semibold text-slate-700 dark:text-slate-300">{g.label}</h3>
            {columns ? (
              <PersonColumns columns={columnsByPerson(g.items, people)} day={g.label} card={card} />
            ) : (
              <ul className="grid grid-cols-1 gap-3 md:grid-cols-2 xl:grid-cols-3" aria-label={`Bookings ${g.label}`}>
                {g.items.map(card)}
              </ul>
            )}
          </section>
        ))}
      </div>
    );
  return (
    <Card aria-labelledby="bookings-title">
      <CardHeader
        title={<span id="bookings-title">Today and upcoming</span>}
        description={owner ? 'Move or cancel a booking: the caller is sent a text' : 'Ask the owner to move or cancel a booking'}
        action={byPerson && <PersonFilter people={people} value={staffId} onChange={setStaffId} />}
      />
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
