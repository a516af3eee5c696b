import { useId, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { cx } from './ui';

export interface TabItem {
  id: string;
  label: string;
}

/**
 * WAI-ARIA tabs with manual activation: arrow keys, Home and End move focus along the tabs,
 * Enter or Space opens one (opening may ask first, so focus alone never switches). The tabs wrap
 * on a narrow screen rather than scroll sideways. Only the open panel is rendered. No colour
 * transition: a tab caught half-way between its states fails the contrast check.
 */
export function Tabs({ label, tabs, current, onSelect, children }: { label: string; tabs: readonly TabItem[]; current: string; onSelect: (id: string) => void; children: ReactNode }) {
  const base = useId();
  const refs = useRef<(HTMLButtonElement | null)[]>([]);
  const tabId = (id: string) => `${base}-tab-${id}`;
  const panelId = (id: string) => `${base}-panel-${id}`;
  const onKeyDown = (e: KeyboardEvent, i: number) => {
    const last = tabs.length - 1;
    const to = { ArrowRight: i === last ? 0 : i + 1, ArrowDown: i === last ? 0 : i + 1, ArrowLeft: i === 0 ? last : i - 1, ArrowUp: i === 0 ? last : i - 1, Home: 0, End: last }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    refs.current[to]?.focus();
  };
  return (
    <>
      <div role="tablist" aria-label={label} className="mb-6 flex flex-wrap gap-2 border-b border-slate-200 pb-3 dark:border-slate-800">
        {tabs.map((t, i) => {
          const selected = t.id === current;
          return (
            <button
              key={t.id}
              ref={(el) => {
                refs.current[i] = el;
              }}
              type="button"
              role="tab"
              id={tabId(t.id)}
              aria-selected={selected}
              aria-controls={selected ? panelId(t.id) : undefined}
              tabIndex={selected ? 0 : -1}
              onClick={() => !selected && onSelect(t.id)}
              onKeyDown={(e) => onKeyDown(e, i)}
              className={cx(
                'h-10 rounded-lg px-4 text-sm font-medium focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500',
                selected
                  ? 'bg-indigo-600 text-white shadow-sm'
                  : 'text-slate-700 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800',
              )}
            >
              {t.label}
            </button>
          );
        })}
      </div>
      <div role="tabpanel" id={panelId(current)} aria-labelledby={tabId(current)} className="grid gap-6">
        {children}
      </div>
    </>
  );
}
