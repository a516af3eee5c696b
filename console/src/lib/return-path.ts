// A protected link opened signed out (an e-mail's /dashboard?call=41) is kept in the landing
// page's address, so the login dialog can return to exactly that link after signing in.

export const NEXT_PARAM = 'next';

/**
 * The link to go back to, when it is a path on this site: "/…" but not "//host" or "/\host"
 * (which browsers read as another site), and no scheme. Anything else gives null.
 */
export function safeReturnPath(raw: string | null | undefined): string | null {
  if (!raw || !raw.startsWith('/') || raw.startsWith('//') || raw.startsWith('/\\')) return null;
  // Control characters (a tab or newline inside "/\t/host") are dropped by URL parsers: refuse them.
  if (/[\u0000-\u001f\u007f]/.test(raw)) return null;
  const url = new URL(raw, 'http://this.site');
  return url.origin === 'http://this.site' ? url.pathname + url.search + url.hash : null;
}

/** The landing page's address that opens the login dialog and returns to `path` afterwards. */
export function loginPathFor(path: string): string {
  return `/?${new URLSearchParams({ [NEXT_PARAM]: path })}`;
}
