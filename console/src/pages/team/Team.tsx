// Team (issue 58, item 7): the people in the business, how calls reach them (routing rules, the
// on-call rota, ring-first) and their own sign-ins. docs/console.md "Team" has its texts.
import { useRefreshTeam, useTeam } from '../../api/team';
import { ErrorState, PageHeader, Skeleton } from '../../components/ui';
import { messageOr } from '../../lib/errors';
import { MemberList } from './MemberList';
import { OnCallRota } from './OnCallRota';
import { RingFirst } from './RingFirst';
import { RoutingRules } from './RoutingRules';

export default function Team() {
  const query = useTeam();
  const refresh = useRefreshTeam();
  let body;
  if (query.isPending) body = <Skeleton className="h-40 w-full" />;
  else if (query.isError) body = <ErrorState title="Unable to load your team" message={messageOr(query.error, 'Please try again')} onRetry={() => void query.refetch()} />;
  else
    body = (
      <>
        <MemberList team={query.data} refresh={refresh} />
        <RoutingRules team={query.data} />
        <OnCallRota team={query.data} />
        <RingFirst team={query.data} />
      </>
    );
  return (
    <div className="grid grid-cols-1 gap-6">
      <PageHeader title="Team" subtitle="The people callers can reach, their hours and services, and how calls find them" />
      {body}
    </div>
  );
}
