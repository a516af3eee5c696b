// Move a booking: one of the service's free times (FreeTimePicker, as Book this caller offers
// them) or any London date and time. The server decides whether it is free (409 naming the rule
// that refused, in everyday words) and texts the caller the new time (issue 57, item 3).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { ApiBooking } from '../../../../contract/schemas/booking';
import { moveBooking } from '../../api/booking';
import { keys } from '../../api/keys';
import { Dialog } from '../../components/Dialog';
import { Button, Field, Input } from '../../components/ui';
import { londonDateAndTime, londonWallToIso } from '../../lib/booking-days';
import { messageOr } from '../../lib/errors';
import { toast } from '../../toast/use-toast';
import { FreeTimePicker } from './FreeTimePicker';

export function MoveDialog({ booking, onClose }: { booking: ApiBooking; onClose: () => void }) {
  const qc = useQueryClient();
  const start = londonDateAndTime(booking.start);
  const [date, setDate] = useState(start.date);
  const [time, setTime] = useState(start.time);
  const [error, setError] = useState<string | null>(null);
  // A free time picked fills the date and time below, which are what is sent.
  const pickFree = (iso: string | null) => {
    if (!iso) return;
    const at = londonDateAndTime(iso);
    setDate(at.date);
    setTime(at.time);
    setError(null);
  };
  const move = useMutation({
    mutationFn: (iso: string) => moveBooking(booking.id, iso),
    onSuccess: (moved) => {
      toast({ title: 'Booking moved', description: `Now ${moved.spoken}. The caller is sent a text.` });
      onClose();
    },
    onError: (e) => setError(messageOr(e, 'Could not move the booking')),
    onSettled: () => Promise.all([qc.invalidateQueries({ queryKey: keys.booking.list }), qc.invalidateQueries({ queryKey: keys.booking.times })]),
  });
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const iso = londonWallToIso(date, time);
    if (!iso) return setError('Pick a date and a time that exists in London (not one skipped when the clocks go forward).');
    setError(null);
    move.mutate(iso);
  };
  return (
    <Dialog open onClose={onClose} title="Move this booking" description={`${booking.serviceName} for ${booking.callerName}, now ${booking.spoken}.`}>
      <form onSubmit={onSubmit} className="grid gap-4">
        <FreeTimePicker serviceId={booking.serviceId} selected={londonWallToIso(date, time)} onSelect={pickFree} />
        <p className="text-sm text-slate-600 dark:text-slate-400">Or any date and time (the booking's own time is not shown as free):</p>
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
          <Field label="New date">
            <Input type="date" required value={date} onChange={(e) => setDate(e.target.value)} />
          </Field>
          <Field label="New time" hint="UK time">
            <Input type="time" required step={300} value={time} onChange={(e) => setTime(e.target.value)} />
          </Field>
        </div>
        {error && <p role="alert" className="text-sm font-medium text-red-600 dark:text-red-400">{error}</p>}
        <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <Button variant="outline" onClick={onClose}>Keep the time</Button>
          <Button type="submit" disabled={move.isPending}>Move booking</Button>
        </div>
      </form>
    </Dialog>
  );
}
