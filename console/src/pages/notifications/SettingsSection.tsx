import { ChevronDown } from 'lucide-react';
import { useId, type ReactNode } from 'react';
import { Card, CardHeader, cx } from '../../components/ui';

/**
 * One card of a long settings page. On a wide screen it is the plain card it always was; on a
 * phone (`phone`) it is a disclosure: a button named by the title, which when closed shows a
 * one-line summary of what is set, so the whole page is a few screens tall instead of 3,577 px
 * (issue 44). The body stays mounted while closed (only `hidden`), so a save sends every field as
 * before; the page opens a section itself when a save is refused for a field inside it.
 */
export function SettingsSection({
  title,
  description,
  summary,
  phone,
  open,
  onToggle,
  children,
}: {
  title: string;
  description: string;
  summary: string;
  phone: boolean;
  open: boolean;
  onToggle: () => void;
  children: ReactNode;
}) {
  const id = useId();
  // The body is the second child in both layouts, so turning the phone round keeps its inputs' state.
  return (
    // min-w-0: a grid or flex item, the closed summary's one unbroken line would widen the page.
    <Card aria-labelledby={phone ? `${id}-title` : undefined} className={cx(phone && 'min-w-0')}>
      {phone ? (
        // The button is named by the title alone; its ::after stretches over the whole header, so
        // a tap on the summary toggles too, and the summary is its description.
        <div className="relative px-4 py-3">
          <h2>
            <button
              type="button"
              className="flex min-h-8 w-full items-center justify-between gap-3 text-left text-base font-semibold after:absolute after:inset-0 after:rounded-xl focus-visible:outline-none focus-visible:after:ring-2 focus-visible:after:ring-indigo-600"
              aria-expanded={open}
              aria-controls={`${id}-body`}
              aria-describedby={`${id}-summary`}
              onClick={onToggle}
            >
              <span id={`${id}-title`}>{title}</span>
              <ChevronDown className={cx('h-5 w-5 shrink-0 text-slate-500 transition-transform dark:text-slate-400', open && 'rotate-180')} aria-hidden />
            </button>
          </h2>
          {/* Closed: what is set, on one line; open: what the section is for. */}
          <p id={`${id}-summary`} className={cx('pr-8 text-sm text-slate-500 dark:text-slate-400', !open && 'truncate')}>
            {open ? description : summary}
          </p>
        </div>
      ) : (
        <CardHeader title={title} description={description} />
      )}
      <div id={`${id}-body`} hidden={phone && !open} className={cx(phone && 'border-t border-slate-100 dark:border-slate-800')}>
        {children}
      </div>
    </Card>
  );
}
