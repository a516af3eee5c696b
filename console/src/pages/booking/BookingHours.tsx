// When callers can book: per weekday (or the call-handling opening hours), the minimum notice,
// how far ahead, and a cap per day. The server's 400 shows at the field it names.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import type { ApiBookingRules, BookingRulesShape } from '../../../../contract/schemas/booking';
import { getRules, saveRules } from '../../api/booking';
import { keys } from '../../api/keys';
import { HoursTable } from '../../components/HoursTable';
import { Button, Card, CardHeader, ErrorState, Field, Input, Skeleton, Switch } from '../../components/ui';
import { fieldErrors, messageOr } from '../../lib/errors';
import { toast } from '../../toast/use-toast';

type Week = ApiBookingRules['effectiveHours'];

function RulesForm({ data }: { data: ApiBookingRules }) {
  const qc = useQueryClient();
  const switchId = useId();
  const [sameAsOpening, setSameAsOpening] = useState(data.rules.hours === null);
  const [hours, setHours] = useState<Week>(data.rules.hours ?? data.effectiveHours);
  const [notice, setNotice] = useState(String(data.rules.noticeMinutes));
  const [horizon, setHorizon] = useState(String(data.rules.horizonDays));
  const [cap, setCap] = useState(data.rules.dailyCap === null ? '' : String(data.rules.dailyCap));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const body: BookingRulesShape = {
      hours: sameAsOpening ? null : hours,
      noticeMinutes: Number(notice || NaN),
      horizonDays: Number(horizon || NaN),
      dailyCap: cap.trim() === '' ? null : Number(cap),
    };
    setBusy(true);
    try {
      const saved = await saveRules(body);
      qc.setQueryData(keys.booking.rules, saved);
      setErrors({});
      toast({ title: 'Booking hours saved' });
    } catch (err) {
      const message = messageOr(err, 'Could not save the booking hours');
      const field = Object.keys(fieldErrors(err))[0];
      setErrors(field ? { [field]: message } : { form: message });
    } finally {
      setBusy(false);
    }
  };
  return (
    <form onSubmit={(e) => void onSubmit(e)} className="grid gap-6 p-5">
      <div className="flex items-center justify-between gap-4">
        <label htmlFor={switchId}>
          <span className="block text-sm font-semibold">Same as my opening hours</span>
          <span className="block text-sm text-slate-600 dark:text-slate-400">Book callers whenever calls are handled as open (Notification Settings)</span>
        </label>
        <Switch id={switchId} label="Same as my opening hours" checked={sameAsOpening} onChange={setSameAsOpening} />
      </div>
      {!sameAsOpening && <HoursTable label="Booking hours" hours={hours} onChange={setHours} errors={errors} />}
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-3">
        <Field label="Minimum notice (minutes)" hint="120 = 2 hours" error={errors.noticeMinutes}>
          <Input type="number" inputMode="numeric" value={notice} onChange={(e) => setNotice(e.target.value)} />
        </Field>
        <Field label="How far ahead (days)" hint="1 to 365" error={errors.horizonDays}>
          <Input type="number" inputMode="numeric" value={horizon} onChange={(e) => setHorizon(e.target.value)} />
        </Field>
        <Field label="Most bookings a day" hint="Empty for no limit" error={errors.dailyCap}>
          <Input type="number" inputMode="numeric" value={cap} onChange={(e) => setCap(e.target.value)} />
        </Field>
      </div>
      {errors.form && <p role="alert" className="text-sm font-medium text-red-600 dark:text-red-400">{errors.form}</p>}
      <div>
        <Button type="submit" disabled={busy}>Save booking hours</Button>
      </div>
    </form>
  );
}

export function BookingHours() {
  const query = useQuery({ queryKey: keys.booking.rules, queryFn: getRules });
  return (
    <Card aria-labelledby="booking-hours-title">
      <CardHeader title={<span id="booking-hours-title">Booking hours</span>} description="When callers can be booked in; bank holidays are closed, times are UK time" />
      {query.isPending ? (
        <div className="p-5"><Skeleton className="h-40 w-full" /></div>
      ) : query.isError ? (
        <div className="p-5"><ErrorState title="Unable to load booking hours" message={messageOr(query.error, 'Please try again')} onRetry={() => void query.refetch()} /></div>
      ) : (
        <RulesForm data={query.data} />
      )}
    </Card>
  );
}
