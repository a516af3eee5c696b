// Small, consistent building blocks: one look for every card, field, badge and button.
import { Loader2 } from 'lucide-react';
import {
  cloneElement,
  isValidElement,
  useId,
  type ButtonHTMLAttributes,
  type InputHTMLAttributes,
  type ReactElement,
  type ReactNode,
  type Ref,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
} from 'react';
import { useMediaQuery } from './use-media-query';

export const cx = (...parts: (string | false | null | undefined)[]) => parts.filter(Boolean).join(' ');

type ButtonVariant = 'primary' | 'secondary' | 'outline' | 'ghost' | 'danger' | 'success';
const buttonTone: Record<ButtonVariant, string> = {
  primary: 'bg-indigo-600 text-white hover:bg-indigo-700 shadow-sm',
  secondary: 'bg-slate-100 text-slate-900 hover:bg-slate-200 dark:bg-slate-800 dark:text-slate-100 dark:hover:bg-slate-700',
  outline:
    'border border-slate-300 bg-white text-slate-800 hover:bg-slate-50 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100 dark:hover:bg-slate-800',
  ghost: 'text-slate-700 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800',
  danger: 'bg-red-600 text-white hover:bg-red-700 shadow-sm',
  success: 'bg-emerald-700 text-white hover:bg-emerald-800 shadow-sm',
};

export function Button({
  variant = 'primary',
  size = 'md',
  className,
  type = 'button',
  ...rest
}: ButtonHTMLAttributes<HTMLButtonElement> & { variant?: ButtonVariant; size?: 'sm' | 'md' | 'lg' | 'icon' }) {
  // Phones get 44 px for full-size buttons (the primary actions); small and icon buttons stay at or above WCAG 2.2's 24 px.
  const sizes = { sm: 'h-8 px-3 text-sm', md: 'h-11 px-4 text-sm sm:h-10', lg: 'h-12 px-6 text-base', icon: 'h-9 w-9' };
  return (
    <button
      type={type}
      className={cx(
        'inline-flex shrink-0 items-center justify-center gap-2 whitespace-nowrap rounded-lg font-medium transition-colors disabled:pointer-events-none disabled:opacity-50',
        buttonTone[variant],
        sizes[size],
        className,
      )}
      {...rest}
    />
  );
}

/** The first stop for keyboard users: jumps past the navigation to the page's <main id="main">. */
export function SkipLink() {
  return (
    <a
      href="#main"
      className="sr-only rounded-lg bg-indigo-700 px-4 py-3 text-sm font-semibold text-white focus:not-sr-only focus:fixed focus:left-4 focus:top-4 focus:z-[60]"
    >
      Skip to main content
    </a>
  );
}

export function Card({ className, children, ...rest }: { className?: string; children: ReactNode } & React.HTMLAttributes<HTMLElement>) {
  return (
    <section
      className={cx('rounded-xl border border-slate-200 bg-white shadow-sm dark:border-slate-800 dark:bg-slate-900', className)}
      {...rest}
    >
      {children}
    </section>
  );
}

export function CardHeader({ title, description, action }: { title: ReactNode; description?: ReactNode; action?: ReactNode }) {
  return (
    <div className="flex flex-wrap items-start justify-between gap-3 border-b border-slate-100 px-5 py-4 dark:border-slate-800">
      <div>
        <h2 className="text-base font-semibold">{title}</h2>
        {description && <p className="mt-0.5 text-sm text-slate-500 dark:text-slate-400">{description}</p>}
      </div>
      {action}
    </div>
  );
}

export function PageHeader({ title, subtitle, actions }: { title: string; subtitle: string; actions?: ReactNode }) {
  return (
    <div className="mb-6 flex flex-wrap items-end justify-between gap-4">
      <div>
        <h1 className="text-2xl font-bold tracking-tight">{title}</h1>
        <p className="mt-1 text-sm text-slate-500 dark:text-slate-400">{subtitle}</p>
      </div>
      {actions && <div className="flex flex-wrap gap-2">{actions}</div>}
    </div>
  );
}

/** A grey placeholder the shape of what is loading; hidden from screen readers, which hear the status text instead. */
export function Skeleton({ className }: { className?: string }) {
  return <span aria-hidden data-skeleton className={cx('block animate-pulse rounded-md bg-slate-200 dark:bg-slate-800', className)} />;
}

/** No figure to show because the read failed: a dash, read out as "Not available", never a made-up 0. */
export const NO_FIGURE = (
  <span aria-label="Not available" className="text-slate-400 dark:text-slate-500">
    —
  </span>
);

/**
 * A figure card. `value` undefined means still loading (a skeleton), null means it could not be
 * loaded (a dash): 0 is shown only when the answer is 0.
 */
export function StatCard({ label, value, note, icon, tone }: { label: string; value: ReactNode | undefined; note?: ReactNode; icon?: ReactNode; tone?: string }) {
  return (
    <Card className="p-5" aria-busy={value === undefined || undefined}>
      <div className="flex items-center justify-between">
        <p className="text-sm font-medium text-slate-600 dark:text-slate-400">{label}</p>
        {icon && <span className={cx('rounded-lg p-2', tone ?? 'bg-indigo-50 text-indigo-600 dark:bg-indigo-950 dark:text-indigo-300')}>{icon}</span>}
      </div>
      <p className="mt-2 text-2xl font-bold tracking-tight" data-testid="stat-value">
        {value === undefined ? <Skeleton className="h-8 w-16" /> : value === null ? NO_FIGURE : value}
      </p>
      {note && <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">{note}</p>}
    </Card>
  );
}

const inputBase =
  'block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 placeholder:text-slate-400 focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-500/30 disabled:cursor-not-allowed disabled:bg-slate-100 disabled:text-slate-500 dark:border-slate-700 dark:bg-slate-950 dark:text-slate-100 dark:disabled:bg-slate-800';

// React 19 passes `ref` as a prop: a caller may focus the field (a code box it takes the owner to).
export function Input({ className, ...rest }: InputHTMLAttributes<HTMLInputElement> & { ref?: Ref<HTMLInputElement> }) {
  return <input className={cx(inputBase, 'h-10', className)} {...rest} />;
}

export function Textarea({ className, ...rest }: TextareaHTMLAttributes<HTMLTextAreaElement>) {
  return <textarea className={cx(inputBase, className)} {...rest} />;
}

export function Select({ className, ...rest }: SelectHTMLAttributes<HTMLSelectElement>) {
  return <select className={cx(inputBase, 'h-10 pr-8', className)} {...rest} />;
}

/**
 * A label, its control, a hint and an error, wired together by ids so screen readers
 * read them with the control. The control is the single child.
 */
export function Field({
  label,
  hint,
  error,
  children,
  required,
}: {
  label: ReactNode;
  hint?: ReactNode;
  error?: string | null;
  required?: boolean;
  children: ReactElement<{ id?: string; 'aria-describedby'?: string; 'aria-invalid'?: boolean }>;
}) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ') || undefined;
  const control = isValidElement(children)
    ? cloneElement(children, { id, 'aria-describedby': describedBy, 'aria-invalid': error ? true : undefined })
    : children;
  return (
    <div className="grid gap-1.5">
      {/* The star sits outside the label so the accessible name stays the plain label; the control carries `required`. */}
      <div className="text-sm font-medium text-slate-700 dark:text-slate-300">
        <label htmlFor={id}>{label}</label>
        {required && (
          <span aria-hidden className="text-red-600">
            {' '}*
          </span>
        )}
      </div>
      {control}
      {hint && (
        <p id={hintId} className="text-xs text-slate-500 dark:text-slate-400">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} role="alert" className="text-xs font-medium text-red-600 dark:text-red-400">
          {error}
        </p>
      )}
    </div>
  );
}

export type BadgeTone = 'gray' | 'green' | 'red' | 'amber' | 'blue' | 'indigo' | 'purple';
const badgeTone: Record<BadgeTone, string> = {
  gray: 'bg-slate-100 text-slate-700 ring-slate-200 dark:bg-slate-800 dark:text-slate-300 dark:ring-slate-700',
  green: 'bg-emerald-50 text-emerald-700 ring-emerald-200 dark:bg-emerald-950 dark:text-emerald-300 dark:ring-emerald-900',
  red: 'bg-red-50 text-red-700 ring-red-200 dark:bg-red-950 dark:text-red-300 dark:ring-red-900',
  amber: 'bg-amber-50 text-amber-800 ring-amber-200 dark:bg-amber-950 dark:text-amber-300 dark:ring-amber-900',
  blue: 'bg-sky-50 text-sky-700 ring-sky-200 dark:bg-sky-950 dark:text-sky-300 dark:ring-sky-900',
  indigo: 'bg-indigo-50 text-indigo-700 ring-indigo-200 dark:bg-indigo-950 dark:text-indigo-300 dark:ring-indigo-900',
  purple: 'bg-violet-50 text-violet-700 ring-violet-200 dark:bg-violet-950 dark:text-violet-300 dark:ring-violet-900',
};

/**
 * `wraps` for a badge that is a phrase rather than a word or two: it may break over lines on a
 * narrow phone instead of widening the page (the pill then rounds its corners less, so no letter
 * is cut; on one line it looks the same).
 */
export function Badge({ tone = 'gray', wraps = false, children, className }: { tone?: BadgeTone; wraps?: boolean; children: ReactNode; className?: string }) {
  return (
    <span className={cx('inline-flex items-center px-2.5 py-0.5 text-xs font-medium ring-1 ring-inset', wraps ? 'rounded-xl' : 'whitespace-nowrap rounded-full', badgeTone[tone], className)}>
      {children}
    </span>
  );
}

export function Spinner({ label, className }: { label?: string; className?: string }) {
  return (
    <div role="status" className={cx('flex flex-col items-center justify-center gap-3 py-12 text-slate-500 dark:text-slate-400', className)}>
      <Loader2 className="h-7 w-7 animate-spin text-indigo-600" aria-hidden />
      {label && <p className="text-sm">{label}</p>}
    </div>
  );
}

export function EmptyState({ icon, title, text, action }: { icon?: ReactNode; title: string; text?: string; action?: ReactNode }) {
  return (
    <div className="flex flex-col items-center justify-center px-6 py-14 text-center">
      {icon && <div className="mb-4 rounded-full bg-slate-100 p-4 text-slate-500 dark:bg-slate-800 dark:text-slate-400">{icon}</div>}
      <h3 className="text-base font-semibold">{title}</h3>
      {text && <p className="mt-1 max-w-sm text-sm text-slate-500 dark:text-slate-400">{text}</p>}
      {action && <div className="mt-5">{action}</div>}
    </div>
  );
}

/** A read that failed: what went wrong (the server's message when it sent one) and a way to try again. */
export function ErrorState({ title, message, onRetry }: { title: string; message: string; onRetry?: () => void }) {
  return (
    <div role="alert" className="flex flex-col items-center justify-center px-6 py-14 text-center">
      <h3 className="text-base font-semibold text-red-700 dark:text-red-400">{title}</h3>
      <p className="mt-1 max-w-md text-sm text-slate-500 dark:text-slate-400">{message}</p>
      {onRetry && (
        <Button variant="outline" className="mt-5" onClick={onRetry}>
          Retry
        </Button>
      )}
    </div>
  );
}

export function Switch({ checked, onChange, label, id, disabled }: { checked: boolean; onChange: (v: boolean) => void; label: string; id?: string; disabled?: boolean }) {
  return (
    <button
      type="button"
      role="switch"
      id={id}
      aria-checked={checked}
      aria-label={label}
      disabled={disabled}
      onClick={() => onChange(!checked)}
      className={cx(
        'relative inline-flex h-6 w-11 shrink-0 items-center rounded-full transition-colors disabled:cursor-not-allowed disabled:opacity-50',
        checked ? 'bg-indigo-600' : 'bg-slate-300 dark:bg-slate-700',
      )}
    >
      <span className={cx('inline-block h-5 w-5 rounded-full bg-white shadow transition-transform', checked ? 'translate-x-5' : 'translate-x-0.5')} />
    </button>
  );
}

/** Tailwind's breakpoints, for the width from which a table is shown as a table. */
const BREAKPOINT = { md: '48rem', lg: '64rem', xl: '80rem' } as const;

/**
 * Tables fit their card: from the breakpoint up a fixed layout with per-column widths (set on
 * the th) and long text truncated with a tooltip (Truncate); below it each row is a stacked
 * card whose cells are labelled by their column (every td carries data-label; index.css
 * .table-stacked). Tables with many columns stack below xl, where the sidebar leaves too
 * little room for them.
 */
export function Table({ children, label, stackBelow = 'md' }: { children: ReactNode; label: string; stackBelow?: keyof typeof BREAKPOINT }) {
  const wide = useMediaQuery(`(min-width: ${BREAKPOINT[stackBelow]})`);
  return (
    <table aria-label={label} className={cx('w-full text-left text-sm', wide ? 'table-fixed' : 'table-stacked')}>
      {children}
    </table>
  );
}

/** One line, cut with an ellipsis when the column is narrower than the text; the whole text in the tooltip. */
export function Truncate({ text, className }: { text: string; className?: string }) {
  return (
    <span className={cx('block min-w-0 truncate', className)} title={text}>
      {text}
    </span>
  );
}

export const th = 'px-3 py-3 text-xs font-semibold uppercase tracking-wide text-slate-600 dark:text-slate-400';
export const td = 'px-3 py-3 align-top';
export const theadRow = 'border-b border-slate-200 bg-slate-50 dark:border-slate-800 dark:bg-slate-900/60';
export const tbodyRow = 'border-b border-slate-100 last:border-0 hover:bg-slate-50/60 dark:border-slate-800 dark:hover:bg-slate-800/40';
