import { WEEKDAYS } from '../../../../../contract/call-handling';
import type { ApiKbDraft } from '../../../../../contract/website';
import { DAY_LABELS } from '../../../lib/call-handling';

/** An 'hours' draft's week as code read it from the page: a small table, a day a row. */
export function DraftHours({ hours }: { hours: NonNullable<ApiKbDraft['hours']> }) {
  return (
    <table className="w-full max-w-xs text-left text-sm" aria-label="Opening hours from your website">
      <tbody>
        {WEEKDAYS.map((day) => (
          <tr key={day} className="border-b border-slate-100 last:border-0 dark:border-slate-800">
            <th scope="row" className="py-1 pr-4 font-medium">
              {DAY_LABELS[day]}
            </th>
            <td className="py-1 text-slate-700 dark:text-slate-300">{hours[day].length ? hours[day].map((s) => `${s.open} to ${s.close}`).join(', ') : 'Closed'}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
