import { lazy } from 'react';
import { useParams } from 'react-router-dom';
import { useMeta } from '../../api/session';
import { Spinner } from '../../components/ui';
import { RequireAdmin } from '../../session/guards';
import NotFound from '../NotFound';

const ProviderNumbers = lazy(() => import('./ProviderNumbers'));

/** /dashboard/{provider}-numbers for the server's provider; any other segment is a 404. */
export default function ProviderSegment() {
  const { segment } = useParams();
  const meta = useMeta();
  if (meta.isLoading) return <Spinner label="Loading..." />;
  if (!meta.data || segment !== `${meta.data.provider}-numbers`) return <NotFound />;
  return (
    <RequireAdmin>
      <ProviderNumbers provider={meta.data.provider} />
    </RequireAdmin>
  );
}
