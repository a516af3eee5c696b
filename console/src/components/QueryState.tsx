import type { ReactNode } from 'react';
import { messageOr } from '../lib/errors';
import { ErrorState, Spinner } from './ui';

/** The part of a TanStack Query result a card reads to know what to show. */
type Read = { isLoading: boolean; isError: boolean; error: unknown; refetch: () => unknown };

/**
 * What a card shows for something read from the server: a spinner named `loading` while it
 * loads, `failed` with the server's reason and Retry when it failed, `empty` (an EmptyState, or
 * false when there is something) when there is nothing, and otherwise what `children` draws,
 * called only then, so it may take the data as there.
 */
export function QueryState({ query, loading, failed, empty = false, children }: { query: Read; loading: string; failed: string; empty?: ReactNode; children: () => ReactNode }) {
  if (query.isLoading) return <Spinner label={loading} />;
  if (query.isError) return <ErrorState title={failed} message={messageOr(query.error, 'Please try again.')} onRetry={() => void query.refetch()} />;
  if (empty) return empty;
  return children();
}
