import { X } from 'lucide-react';
import { useEffect, useRef, useState, type PointerEvent } from 'react';
import { isSwipeClose, TOAST_DEFAULT_DURATION, type Toast } from './toast-store';
import { dismissToast, useToasts } from './use-toast';

const tone: Record<NonNullable<Toast['variant']>, string> = {
  default: 'border-slate-200 bg-white text-slate-900 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100',
  success: 'border-emerald-200 bg-white text-slate-900 dark:border-emerald-800 dark:bg-slate-900 dark:text-slate-100',
  destructive: 'border-red-600 bg-red-600 text-white dark:border-red-700 dark:bg-red-700',
};

function ToastCard({ t }: { t: Toast }) {
  const [dx, setDx] = useState(0);
  const start = useRef<number | null>(null);

  // Closes itself after its duration. The clock stops while the pointer or focus is on the
  // toast (as Radix does), so nobody loses a message they are reading or swiping.
  const remaining = useRef(t.duration ?? TOAST_DEFAULT_DURATION);
  const [paused, setPaused] = useState(false);
  useEffect(() => {
    if (paused) return;
    const started = Date.now();
    const timer = setTimeout(() => dismissToast(t.id), Math.max(0, remaining.current));
    return () => {
      clearTimeout(timer);
      remaining.current -= Date.now() - started;
    };
  }, [paused, t.id]);

  const onDown = (e: PointerEvent) => {
    // Capturing the pointer would steal the click from the close button.
    if ((e.target as HTMLElement).closest('button')) return;
    start.current = e.clientX;
    (e.currentTarget as HTMLElement).setPointerCapture?.(e.pointerId);
  };
  const onMove = (e: PointerEvent) => {
    if (start.current !== null) setDx(Math.max(0, e.clientX - start.current));
  };
  const onUp = (e: PointerEvent) => {
    if (start.current === null) return;
    const delta = e.clientX - start.current;
    start.current = null;
    if (isSwipeClose(delta)) dismissToast(t.id);
    else setDx(0);
  };

  return (
    <div
      role="status"
      aria-live="polite"
      aria-atomic="true"
      data-testid="toast"
      onPointerEnter={() => setPaused(true)}
      onPointerLeave={() => setPaused(false)}
      onFocus={() => setPaused(true)}
      onBlur={() => setPaused(false)}
      onPointerDown={onDown}
      onPointerMove={onMove}
      onPointerUp={onUp}
      onPointerCancel={() => {
        start.current = null;
        setDx(0);
      }}
      style={{ transform: dx ? `translateX(${dx}px)` : undefined, touchAction: 'pan-y' }}
      // No text selection: a selected text would turn the next drag into drag-and-drop (pointercancel).
      onDragStart={(e) => e.preventDefault()}
      className={`pointer-events-auto relative flex w-full select-none items-start gap-3 rounded-lg border p-4 pr-10 shadow-lg transition-transform ${tone[t.variant ?? 'default']}`}
    >
      <div className="grid gap-1">
        {t.title && <p className="text-sm font-semibold">{t.title}</p>}
        {t.description && <p className="text-sm">{t.description}</p>}
        {t.action && (
          <div>
            <button
              type="button"
              onClick={() => {
                dismissToast(t.id);
                t.action!.onClick();
              }}
              className="mt-1 inline-flex min-h-11 items-center rounded-md border border-current px-3 text-sm font-medium sm:min-h-8"
            >
              {t.action.label}
            </button>
          </div>
        )}
      </div>
      <button
        type="button"
        aria-label="Close notification"
        onClick={() => dismissToast(t.id)}
        className="absolute right-2 top-2 rounded-md p-1 opacity-70 hover:opacity-100"
      >
        <X className="h-4 w-4" aria-hidden />
      </button>
    </div>
  );
}

/** At most one toast is visible (TOAST_LIMIT); closed ones stay in the store until removed but are not shown. */
export function Toaster() {
  const toasts = useToasts().filter((t) => t.open);
  return (
    // Not a list: each toast is its own status region, which a list item may not be (axe: list).
    <div
      role="region"
      aria-label="Notifications"
      className="pointer-events-none fixed inset-x-0 top-0 z-[100] flex flex-col gap-2 p-4 sm:bottom-0 sm:left-auto sm:right-0 sm:top-auto sm:w-full sm:max-w-sm"
    >
      {toasts.map((t) => (
        <ToastCard key={t.id} t={t} />
      ))}
    </div>
  );
}
