// A week of opening times (up to SPANS_PER_DAY a day), each day's server error under it: the
// call-handling opening hours and the booking hours edit their weeks with it.
import { Plus, Trash2 } from 'lucide-react';
import { WEEKDAYS, type OpeningSpan, type Weekday } from '../../../contract/call-handling';
import { DAY_LABELS, SPANS_PER_DAY } from '../lib/call-handling';
import { Button, Input } from './ui';

/** A day left out is closed, as the call-handling form sends it. */
type Week = Partial<Record<Weekday, OpeningSpan[]>>;

export function HoursTable<W extends Week>({ hours, onChange, errors, label = 'Opening hours' }: { hours: W; onChange: (h: W) => void; errors: Record<string, string>; label?: string }) {
  const setDay = (day: Weekday, spans: OpeningSpan[]) => onChange({ ...hours, [day]: spans });
  return (
    <div className="grid gap-2" role="group" aria-label={label}>
      {WEEKDAYS.map((day) => {
        const spans = hours[day] ?? [];
        const name = DAY_LABELS[day];
        const error = errors[`hours.${day}`];
        return (
          // On a phone the day's name and its Add hours share a line, its hours below: a week in about half the height.
          <div key={day} className="grid grid-cols-[minmax(0,1fr)_auto] items-start gap-2 border-b border-slate-100 pb-2 last:border-0 sm:flex sm:flex-row dark:border-slate-800">
            <span className="shrink-0 pt-2 text-sm font-medium sm:w-28">{name}</span>
            <div className="col-span-2 flex flex-1 flex-col gap-2 sm:order-none">
              {spans.length === 0 && <span className="text-sm text-slate-500 sm:pt-2 dark:text-slate-400">Closed all day</span>}
              {spans.map((span, i) => (
                <div key={i} className="flex flex-wrap items-center gap-2">
                  <div className="w-36">
                    <Input
                      type="time"
                      aria-label={`${name} opens`}
                      aria-invalid={error ? true : undefined}
                      value={span.open}
                      onChange={(e) => setDay(day, spans.map((s, j) => (j === i ? { ...s, open: e.target.value } : s)))}
                    />
                  </div>
                  <span className="text-sm text-slate-500 dark:text-slate-400">to</span>
                  <div className="w-36">
                    <Input
                      type="time"
                      aria-label={`${name} closes`}
                      aria-invalid={error ? true : undefined}
                      value={span.close}
                      onChange={(e) => setDay(day, spans.map((s, j) => (j === i ? { ...s, close: e.target.value } : s)))}
                    />
                  </div>
                  <Button size="icon" variant="ghost" aria-label={`Remove ${name} ${span.open} to ${span.close}`} onClick={() => setDay(day, spans.filter((_, j) => j !== i))}>
                    <Trash2 className="h-4 w-4" aria-hidden />
                  </Button>
                </div>
              ))}
              {error && (
                <p role="alert" className="text-xs font-medium text-red-600 dark:text-red-400">
                  {error}
                </p>
              )}
            </div>
            <Button
              size="sm"
              variant="outline"
              className="col-start-2 row-start-1 mt-1 sm:mt-0"
              aria-label={`Add hours on ${name}`}
              disabled={spans.length >= SPANS_PER_DAY}
              onClick={() => setDay(day, [...spans, spans.length ? { open: '13:00', close: '17:30' } : { open: '09:00', close: '17:30' }])}
            >
              <Plus className="h-3.5 w-3.5" aria-hidden /> Add hours
            </Button>
          </div>
        );
      })}
    </div>
  );
}
