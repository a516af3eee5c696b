import type { ReactNode } from 'react';
import { Navigate, Outlet } from 'react-router-dom';
import { useSession } from '../api/session';

export function FullPageSpinner() {
  return (
    <div role="status" className="flex min-h-screen flex-col items-center justify-center gap-3 text-slate-500 dark:text-slate-400">
      <span className="h-8 w-8 animate-spin rounded-full border-4 border-indigo-600 border-t-transparent" aria-hidden />
      <p className="text-sm">Loading...</p>
    </div>
  );
}

/** Signed-out visitors go to /; while the session is loading the page shows "Loading...". */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { user, isLoading } = useSession();
  if (isLoading) return <FullPageSpinner />;
  if (!user) return <Navigate to="/" replace />;
  return <>{children}</>;
}

/** Non-admins go to /dashboard. Used inside RequireAuth, so the user is known. */
export function RequireAdmin({ children }: { children?: ReactNode }) {
  const { isAdmin, isLoading } = useSession();
  if (isLoading) return <FullPageSpinner />;
  if (!isAdmin) return <Navigate to="/dashboard" replace />;
  return <>{children ?? <Outlet />}</>;
}
