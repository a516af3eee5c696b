// A module-level store so any code (mutations, event handlers) can raise a toast.
import { useSyncExternalStore } from 'react';
import { TOAST_REMOVE_DELAY, toastReducer, type Toast, type ToastAction, type ToastState } from './toast-store';

let state: ToastState = { toasts: [] };
const listeners = new Set<() => void>();
const removeTimers = new Map<string, ReturnType<typeof setTimeout>>();
let counter = 0;

function dispatch(action: ToastAction) {
  state = toastReducer(state, action);
  if (action.type === 'DISMISS_TOAST') {
    for (const t of state.toasts) if (!t.open) scheduleRemoval(t.id);
  }
  listeners.forEach((l) => l());
}

/** A dismissed toast leaves the store TOAST_REMOVE_DELAY ms later (SPEC.md §9). */
function scheduleRemoval(id: string) {
  if (removeTimers.has(id)) return;
  removeTimers.set(
    id,
    setTimeout(() => {
      removeTimers.delete(id);
      dispatch({ type: 'REMOVE_TOAST', toastId: id });
    }, TOAST_REMOVE_DELAY),
  );
}

export type ToastInput = Omit<Toast, 'id' | 'open'>;

export function toast(input: ToastInput) {
  const id = String(++counter);
  dispatch({ type: 'ADD_TOAST', toast: { ...input, id, open: true } });
  return {
    id,
    dismiss: () => dispatch({ type: 'DISMISS_TOAST', toastId: id }),
    update: (next: ToastInput) => dispatch({ type: 'UPDATE_TOAST', toast: { ...next, id } }),
  };
}

export function dismissToast(toastId?: string) {
  dispatch({ type: 'DISMISS_TOAST', toastId });
}

export function useToasts(): Toast[] {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => state.toasts,
  );
}
