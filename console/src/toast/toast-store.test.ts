import { describe, expect, it } from 'vitest';
import { isSwipeClose, toastReducer, TOAST_LIMIT, type Toast } from './toast-store';

const t = (id: string): Toast => ({ id, open: true, title: id });

describe('toast reducer', () => {
  it('keeps at most one toast, the newest', () => {
    let s = toastReducer({ toasts: [] }, { type: 'ADD_TOAST', toast: t('a') });
    s = toastReducer(s, { type: 'ADD_TOAST', toast: t('b') });
    expect(TOAST_LIMIT).toBe(1);
    expect(s.toasts.map((x) => x.id)).toEqual(['b']);
  });

  it('dismisses one or all by closing, and removes later', () => {
    const s = { toasts: [t('a')] };
    expect(toastReducer(s, { type: 'DISMISS_TOAST', toastId: 'a' }).toasts[0]!.open).toBe(false);
    expect(toastReducer(s, { type: 'DISMISS_TOAST' }).toasts[0]!.open).toBe(false);
    expect(toastReducer(s, { type: 'DISMISS_TOAST', toastId: 'x' }).toasts[0]!.open).toBe(true);
    expect(toastReducer(s, { type: 'REMOVE_TOAST', toastId: 'a' }).toasts).toEqual([]);
    expect(toastReducer(s, { type: 'REMOVE_TOAST' }).toasts).toEqual([]);
  });

  it('updates a toast in place', () => {
    const s = toastReducer({ toasts: [t('a')] }, { type: 'UPDATE_TOAST', toast: { id: 'a', title: 'new' } });
    expect(s.toasts[0]).toMatchObject({ id: 'a', title: 'new', open: true });
  });

  it('closes on a swipe right past 50 px only', () => {
    expect(isSwipeClose(50)).toBe(false);
    expect(isSwipeClose(51)).toBe(true);
    expect(isSwipeClose(-200)).toBe(false);
  });
});
