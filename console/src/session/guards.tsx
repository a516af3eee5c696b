import type { ReactNode } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { useSession } from '../api/session';
import { staffPaths } from '../layout/nav';
import { loginPathFor } from '../lib/return-path';

export function FullPageSpinner() {
  return (
    <div role="status" className="flex min-h-screen flex-col items-center justify-center gap-3 text-slate-500 dark:text-slate-400">
      <span className="h-8 w-8 animate-spin rounded-full border-4 border-indigo-600 border-t-transparent" aria-hidden />
      <p className="text-sm">Loading...</p>
    </div>
  );
}

/**
 * Signed-out visitors go to / with the login dialog open, which returns them to the link they
 * opened; while the session is loading the page shows "Loading...".
 */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { user, isLoading } = useSession();
  const { pathname, search, hash } = useLocation();
  if (isLoading) return <FullPageSpinner />;
  if (!user) return <Navigate to={loginPathFor(pathname + search + hash)} replace />;
  return <>{children}</>;
}

/** Non-admins go to /dashboard. Used inside RequireAuth, so the user is known. */
export function RequireAdmin({ children }: { children?: ReactNode }) {
  const { isAdmin, isLoading } = useSession();
  if (isLoading) return <FullPageSpinner />;
  if (!isAdmin) return <Navigate to="/dashboard" replace />;
  return <>{children ?? <Outlet />}</>;
}

/**
 * A staff member's sign-in (issue 58) opens only the pages their navigation shows; any other
 * dashboard address goes to Call Logs. The server refuses their requests there anyway.
 */
export function StaffLimits({ children }: { children: ReactNode }) {
  const { user } = useSession();
  const { pathname } = useLocation();
  if (user?.role === 'staff' && !staffPaths().includes(pathname.replace(/\/$/, '') || '/dashboard')) return <Navigate to="/dashboard" replace />;
  return <>{children}</>;
}
