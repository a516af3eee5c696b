import { createContext, useContext, useEffect, useId } from 'react';

const UNSAVED_CHANGES = 'You have unsaved changes. Leave this page without saving them?';
export const UNSAVED_SECTION_CHANGES = 'You have unsaved changes in this section. Leave it without saving them?';

/**
 * A page made of sections (Notification Settings) learns here which of its forms hold unsaved
 * edits, so switching section can ask first as leaving the page does.
 */
export const UnsavedChangesScope = createContext<((form: string, dirty: boolean) => void) | null>(null);

/**
 * While `dirty`, leaving asks first: closing or reloading the tab (the browser's own prompt) and
 * following a link inside the app (a confirm before React Router sees the click). The router is
 * a BrowserRouter, which has no navigation blocker, so links are caught in the capture phase.
 */
export function useUnsavedChangesWarning(dirty: boolean): void {
  const form = useId();
  const report = useContext(UnsavedChangesScope);
  useEffect(() => {
    if (!report) return;
    report(form, dirty);
    return () => report(form, false);
  }, [report, form, dirty]);
  useEffect(() => {
    if (!dirty) return;
    const onBeforeUnload = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      e.returnValue = '';
    };
    const onClick = (e: MouseEvent) => {
      if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
      const link = (e.target as Element | null)?.closest?.('a[href]');
      if (!(link instanceof HTMLAnchorElement) || link.target === '_blank' || link.hasAttribute('download')) return;
      const to = new URL(link.href, window.location.href);
      if (to.origin !== window.location.origin || (to.pathname === window.location.pathname && to.search === window.location.search)) return;
      if (!window.confirm(UNSAVED_CHANGES)) {
        e.preventDefault();
        e.stopPropagation();
      }
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    document.addEventListener('click', onClick, true);
    return () => {
      window.removeEventListener('beforeunload', onBeforeUnload);
      document.removeEventListener('click', onClick, true);
    };
  }, [dirty]);
}
