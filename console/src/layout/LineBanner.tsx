import { PhoneOff } from 'lucide-react';
import { useOwnerLineState } from '../api/line-state';
import { useSession } from '../api/session';

/**
 * Above every owner page while the box cannot answer their calls (the phone system is down, or
 * their line was not forwarding when last checked): the server's plain words, one per problem.
 */
export function LineBanner() {
  const { user } = useSession();
  const line = useOwnerLineState({ enabled: user?.role === 'customer' });
  const problems = line.data?.problems ?? [];
  if (user?.role !== 'customer' || problems.length === 0) return null;
  return (
    <div role="alert" data-testid="line-banner" className="mb-6 flex gap-3 rounded-xl border border-red-300 bg-red-50 p-4 text-sm text-red-900 dark:border-red-900 dark:bg-red-950/60 dark:text-red-100">
      <PhoneOff className="mt-0.5 h-5 w-5 shrink-0" aria-hidden />
      <div className="grid min-w-0 gap-1">
        {problems.map((p) => (
          <p key={p.id} data-problem={p.id}>
            {p.message}
          </p>
        ))}
      </div>
    </div>
  );
}
