// The owner's kind of business line (issue 44): picked once on Phone Numbers, remembered in this
// browser, so the codes shown first everywhere (the picker, the first-run checklist) are the ones
// their keypad can dial. Until they pick, a BT-style landline: the commonest business line, and
// its national-format codes are what a landline keypad (which has no +) can dial.
import { useCallback, useSyncExternalStore } from 'react';
import { LINE_TYPES, type LineType } from '../../../contract/forwarding-codes';

const key = (userId: number) => `line-type-${userId}`;
const EVENT = 'line-type-change';

function storedLineType(userId: number): LineType | null {
  const v = localStorage.getItem(key(userId));
  return (LINE_TYPES as readonly string[]).includes(v ?? '') ? (v as LineType) : null;
}

/** [the owner's line type (landline until picked), whether they picked it, set it]. */
export function useLineType(userId: number | undefined): [LineType, boolean, (t: LineType) => void] {
  const subscribe = useCallback((on: () => void) => {
    window.addEventListener(EVENT, on);
    window.addEventListener('storage', on);
    return () => {
      window.removeEventListener(EVENT, on);
      window.removeEventListener('storage', on);
    };
  }, []);
  const picked = useSyncExternalStore(subscribe, () => (userId === undefined ? null : storedLineType(userId)));
  const set = useCallback(
    (t: LineType) => {
      if (userId === undefined) return;
      localStorage.setItem(key(userId), t);
      window.dispatchEvent(new Event(EVENT));
    },
    [userId],
  );
  return [picked ?? 'landline', picked !== null, set];
}
