// Call Details' "Book this caller" (issue 41, item 8): for a caller who wanted a booking in their
// voicemail (or any caller with a number), the owner picks a service and one of the free times the
// agent's slot engine offers (FreeTimePicker: by day, "Wed 2 Dec · 12:30"), and books. The server claims the slot as the agent does (a time taken
// meanwhile is a 409 shown here, with the times read again) and texts the caller their confirmation.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CalendarPlus } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import type { ApiCallLog } from '../../../../contract/api';
import { bookCaller, getServices } from '../../api/booking';
import { keys } from '../../api/keys';
import { Button, Field, Input, Select, Spinner } from '../../components/ui';
import { fieldErrors, messageOr } from '../../lib/errors';
import { toast } from '../../toast/use-toast';
import { FreeTimePicker } from './FreeTimePicker';

export function BookCaller({ call }: { call: Pick<ApiCallLog, 'id' | 'wantsBooking'> }) {
  const [open, setOpen] = useState(false);
  const headingId = `call-${call.id}-book`;
  return (
    <section aria-labelledby={headingId} className="grid gap-2">
      <h3 id={headingId} className="text-sm font-semibold">Book a time</h3>
      {call.wantsBooking && <p className="text-sm">The caller wanted a booking.</p>}
      {open ? (
        <BookForm callId={call.id} onClose={() => setOpen(false)} />
      ) : (
        <div>
          <Button variant={call.wantsBooking ? 'primary' : 'outline'} onClick={() => setOpen(true)}>
            <CalendarPlus className="h-4 w-4" aria-hidden /> Book this caller
          </Button>
        </div>
      )}
    </section>
  );
}

function BookForm({ callId, onClose }: { callId: number; onClose: () => void }) {
  const qc = useQueryClient();
  const services = useQuery({ queryKey: keys.booking.services, queryFn: getServices });
  const [serviceId, setServiceId] = useState<number | null>(null);
  const chosenService = serviceId ?? services.data?.services[0]?.id ?? null;
  const [start, setStart] = useState<string | null>(null);
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [nameError, setNameError] = useState<string | null>(null);
  const book = useMutation({
    mutationFn: () => bookCaller(callId, { serviceId: chosenService!, start: start!, callerName: name.trim() || undefined }),
    onSuccess: (made) => {
      toast({ title: 'Booked', description: `${made.serviceName}, ${made.spoken}. The caller is sent a text.` });
      onClose();
    },
    onError: (e) => {
      setError(messageOr(e, 'Could not book this caller'));
      setNameError(fieldErrors(e).callerName ?? null);
      setStart(null);
    },
    // Call Details' booking, the Bookings list and every offer of free times change.
    onSettled: () => Promise.all([qc.invalidateQueries({ queryKey: keys.booking.list }), qc.invalidateQueries({ queryKey: keys.booking.times })]),
  });
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (!start) return setError('Pick one of the free times.');
    setError(null);
    book.mutate();
  };
  const pickService = (id: number) => {
    setServiceId(id);
    setStart(null);
  };

  if (services.isPending) return <Spinner label="Reading your services" />;
  if (services.isError) return <p role="alert" className="text-sm text-red-700 dark:text-red-300">{messageOr(services.error, 'Could not read your services')}</p>;
  if (services.data.services.length === 0) {
    return (
      <p className="text-sm">
        Add a service first, under <Link to="/dashboard/bookings?tab=services" className="text-indigo-700 underline dark:text-indigo-300">Bookings → Services and hours</Link>.
      </p>
    );
  }
  return (
    <form aria-label="Book this caller" onSubmit={onSubmit} className="grid gap-4 rounded-lg border border-slate-200 p-3 dark:border-slate-800">
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <Field label="Service">
          <Select value={chosenService ?? ''} onChange={(e) => pickService(Number(e.target.value))}>
            {services.data.services.map((s) => <option key={s.id} value={s.id}>{s.name} ({s.durationMinutes} min)</option>)}
          </Select>
        </Field>
        <Field label="Caller's name" hint="As they gave it in their message" error={nameError}>
          <Input value={name} maxLength={80} autoComplete="off" onChange={(e) => setName(e.target.value)} />
        </Field>
      </div>
      {chosenService !== null && <FreeTimePicker key={chosenService} serviceId={chosenService} selected={start} onSelect={setStart} />}
      {error && <p role="alert" className="text-sm font-medium text-red-600 dark:text-red-400">{error}</p>}
      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <Button variant="outline" onClick={onClose}>Not now</Button>
        <Button type="submit" disabled={book.isPending}>Book and text the caller</Button>
      </div>
    </form>
  );
}
