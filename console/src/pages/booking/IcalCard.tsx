// A calendar's secret iCal address (Google, Outlook, any .ics): read once when saved, and what
// was found said back. The address is a secret, so it is never shown again, only whether one is set.
import { useState, type FormEvent } from 'react';
import type { ApiBookingCalendar } from '../../../../contract/schemas/booking';
import { Button, Card, CardHeader, Field, Input } from '../../components/ui';
import { messageOr } from '../../lib/errors';
import { toast } from '../../toast/use-toast';
import type { CalendarRequests } from './calendar-requests';

export function IcalCard({ cal, onSaved, save: request, title = "Your calendar's iCal address" }: {
  cal: ApiBookingCalendar;
  onSaved: (c: ApiBookingCalendar) => void;
  save: CalendarRequests['saveIcal'];
  title?: string;
}) {
  const [url, setUrl] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [found, setFound] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const save = async (value: string | null) => {
    setBusy(true);
    setFound(null);
    try {
      const saved = await request(value);
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
        title={<span id="ical-title">{title}</span>}
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
