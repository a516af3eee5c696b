// A staff member's own sign-in (issue 58) says whose it is and whose business it shows:
// "Signed in as Sarah at Smith Plumbing". The owner's sign-in has no banner.
import { useSession } from '../api/session';
import { staffBanner } from '../lib/team';

export function StaffBanner() {
  const { user, staff } = useSession();
  if (user?.role !== 'staff') return null;
  const name = staff?.name || user.email;
  return (
    <p data-testid="staff-banner" className="mb-4 rounded-lg border border-indigo-200 bg-indigo-50 px-4 py-2 text-sm font-medium text-indigo-900 dark:border-indigo-900 dark:bg-indigo-950 dark:text-indigo-100">
      {staffBanner(name, staff?.businessName ?? user.businessName)}
    </p>
  );
}
