// Call Details: the booking this call made, if any (read by the call's id, so a booking long
// past or cancelled still shows; one since moved shows at its new time, marked Moved), with a
// link to the Bookings page. A call with none live, from a caller with a number, offers "Book
// this caller" (issue 41, item 8), to the owner only: a staff sign-in (issue 58) reads the booking.
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import type { ApiCallLog } from '../../../../contract/api';
import { canRingBack } from '../../../../contract/callback';
import { getCallBookings } from '../../api/booking';
import { useSession } from '../../api/session';
import { keys } from '../../api/keys';
import { Badge } from '../../components/ui';
import { depositTone, depositWords } from '../../lib/deposit-words';
import { messageOr } from '../../lib/errors';
import { formatPhone } from '../../lib/format';
import { BookCaller } from './BookCaller';

export function CallBooking({ call }: { call: ApiCallLog }) {
  const callId = call.id;
  const owner = useSession().staff === null;
  const query = useQuery({ queryKey: keys.booking.ofCall(callId), queryFn: ({ signal }) => getCallBookings(callId, signal) });
  if (query.isPending) return null;
  if (query.isError) return <p className="text-sm text-red-700 dark:text-red-300">{messageOr(query.error, 'Could not read this call’s booking')}</p>;
  // Nobody to book from a withheld, blocked or test call; one booking live per call.
  const bookable = owner && canRingBack(call) && !query.data.bookings.some((b) => b.status === 'booked');
  if (query.data.bookings.length === 0) return bookable ? <BookCaller call={call} /> : null;
  return (
    <>
      <section aria-labelledby={`call-${callId}-booking`}>
        <h3 id={`call-${callId}-booking`} className="mb-1.5 text-sm font-semibold">Booking</h3>
        <ul className="grid gap-2">
          {query.data.bookings.map((b) => (
            <li key={b.id} className="rounded-lg bg-slate-50 p-3 text-sm dark:bg-slate-800/60">
              <span className="font-medium">{b.serviceName}</span>, {b.spoken}, for {b.callerName} ({formatPhone(b.callerNumber)})
              {b.status === 'booked' && b.movedFrom && <Badge tone="gray" className="ml-2">Moved</Badge>}
              {b.status !== 'booked' && <Badge tone="gray" className="ml-2">{b.cancelledBy === 'moved' ? 'Moved' : 'Cancelled'}</Badge>}
              {b.depositState && <Badge tone={depositTone(b.depositState)} wraps className="ml-2">{depositWords(b.depositState, b.depositDueAt)}</Badge>}
              <Link to="/dashboard/bookings" className="ml-2 text-indigo-700 underline dark:text-indigo-300">See bookings</Link>
            </li>
          ))}
        </ul>
      </section>
      {bookable && <BookCaller call={call} />}
    </>
  );
}
