// The free times of a service, from the slot engine the agent offers from, grouped by London day
// ("Wed 2 Dec", then 09:00, 09:30, …; each radio named in full, "Wed 2 Dec · 12:30"), with
// "Later times" and "Earlier times". Book this caller and Move both pick from it (issue 57, item 3).
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { getFreeTimes } from '../../api/booking';
import { keys } from '../../api/keys';
import { Button, cx, Spinner } from '../../components/ui';
import { freeTimeLabel, groupByLondonDay, londonTime, shortLondonDay } from '../../lib/booking-days';
import { messageOr } from '../../lib/errors';

export function FreeTimePicker({ serviceId, selected, onSelect, legend = 'Free times (UK time)' }: {
  serviceId: number;
  /** The chosen start (ISO), or null. */
  selected: string | null;
  /** A time picked, or null when the page of times changes under the choice. */
  onSelect: (start: string | null) => void;
  legend?: string;
}) {
  // "Later times" pages forward from the last time shown; "Earlier times" goes back a page.
  const [pages, setPages] = useState<string[]>([]);
  const after = pages.at(-1) ?? null;
  const times = useQuery({
    queryKey: keys.booking.timesOf(serviceId, after),
    queryFn: ({ signal }) => getFreeTimes(serviceId, after, signal),
  });
  const radioName = useId();
  const list = times.data?.times ?? [];
  const turn = (next: string[]) => {
    setPages(next);
    onSelect(null);
  };
  const isSelected = (start: string) => selected !== null && Date.parse(selected) === Date.parse(start);
  return (
    <fieldset className="grid min-w-0 gap-2">
      <legend className="mb-1.5 text-sm font-medium text-slate-700 dark:text-slate-300">{legend}</legend>
      {times.isPending && <Spinner label="Finding free times" />}
      {times.isError && <p role="alert" className="text-sm text-red-700 dark:text-red-300">{messageOr(times.error, 'Could not find free times')}</p>}
      {times.isSuccess && list.length === 0 && <p className="text-sm">No free times {after ? 'after these' : 'within how far ahead callers can book'}.</p>}
      {groupByLondonDay(list).map((group) => {
        const day = shortLondonDay(group.items[0]!.start);
        return (
          <div key={group.day} role="group" aria-label={day} className="grid gap-1.5">
            <p aria-hidden className="text-xs font-semibold uppercase tracking-wide text-slate-600 dark:text-slate-400">{day}</p>
            <div className="grid grid-cols-3 gap-2 sm:grid-cols-4">
              {group.items.map((t) => (
                <label
                  key={t.start}
                  className={cx(
                    'flex min-h-11 cursor-pointer items-center justify-center gap-1.5 rounded-lg border px-2 py-2 text-sm tabular-nums has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-indigo-500',
                    isSelected(t.start) ? 'border-indigo-500 bg-indigo-50/60 dark:bg-indigo-950/40' : 'border-slate-200 dark:border-slate-700',
                  )}
                >
                  <input
                    type="radio"
                    name={radioName}
                    value={t.start}
                    aria-label={freeTimeLabel(t.start)}
                    checked={isSelected(t.start)}
                    onChange={() => onSelect(t.start)}
                    className="h-4 w-4 shrink-0 accent-indigo-600"
                  />
                  <span>{londonTime(t.start)}</span>
                </label>
              ))}
            </div>
          </div>
        );
      })}
      <div className="flex flex-wrap gap-2">
        {pages.length > 0 && <Button variant="outline" size="sm" onClick={() => turn(pages.slice(0, -1))}>Earlier times</Button>}
        {list.length > 0 && <Button variant="outline" size="sm" onClick={() => turn([...pages, list.at(-1)!.start])}>Later times</Button>}
      </div>
    </fieldset>
  );
}
