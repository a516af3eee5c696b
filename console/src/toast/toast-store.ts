// Toast state as a pure reducer (SPEC.md §2 Notifications, §9 Timing), after the shadcn/ui toast store.

export const TOAST_LIMIT = 1;
export const TOAST_REMOVE_DELAY = 1_000_000;
export const TOAST_DEFAULT_DURATION = 5000;
const TOAST_SWIPE_THRESHOLD = 50;

type ToastVariant = 'default' | 'destructive' | 'success';

export interface Toast {
  id: string;
  open: boolean;
  title?: string;
  description?: string;
  variant?: ToastVariant;
  /** How long it stays before closing itself, in ms. */
  duration?: number;
  /** One button beside the message (an Undo); pressing it also closes the toast. */
  action?: { label: string; onClick: () => void };
}

export type ToastAction =
  | { type: 'ADD_TOAST'; toast: Toast }
  | { type: 'UPDATE_TOAST'; toast: Partial<Toast> & { id: string } }
  | { type: 'DISMISS_TOAST'; toastId?: string }
  | { type: 'REMOVE_TOAST'; toastId?: string };

export interface ToastState {
  toasts: Toast[];
}

export function toastReducer(state: ToastState, action: ToastAction): ToastState {
  switch (action.type) {
    case 'ADD_TOAST':
      // Newest first, and only TOAST_LIMIT of them are kept at all.
      return { toasts: [action.toast, ...state.toasts].slice(0, TOAST_LIMIT) };
    case 'UPDATE_TOAST':
      return { toasts: state.toasts.map((t) => (t.id === action.toast.id ? { ...t, ...action.toast } : t)) };
    case 'DISMISS_TOAST':
      return {
        toasts: state.toasts.map((t) => (action.toastId === undefined || t.id === action.toastId ? { ...t, open: false } : t)),
      };
    case 'REMOVE_TOAST':
      return { toasts: action.toastId === undefined ? [] : state.toasts.filter((t) => t.id !== action.toastId) };
  }
}

/** True when a rightward drag has gone far enough to close the toast. */
export function isSwipeClose(deltaX: number): boolean {
  return deltaX > TOAST_SWIPE_THRESHOLD;
}
