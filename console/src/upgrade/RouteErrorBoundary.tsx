import { AlertTriangle } from 'lucide-react';
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { Button, Card } from '../components/ui';
import { claimReload, isChunkLoadError } from './chunk-reload';

interface State {
  error: Error | null;
  reloading: boolean;
}

/**
 * One per route (keyed by the path, so moving on clears it): a chunk that fails to load
 * reloads the app once; anything else, or a second failure, shows a card with Reload
 * instead of a white page.
 */
export class RouteErrorBoundary extends Component<{ children: ReactNode }, State> {
  state: State = { error: null, reloading: false };

  static getDerivedStateFromError(error: Error): Partial<State> {
    return { error };
  }

  componentDidCatch(error: Error, info: ErrorInfo): void {
    if (isChunkLoadError(error) && claimReload()) {
      this.setState({ reloading: true });
      window.location.reload();
      return;
    }
    console.error(error, info.componentStack);
  }

  render() {
    const { error, reloading } = this.state;
    if (!error) return this.props.children;
    if (reloading) return null;
    const upgrade = isChunkLoadError(error);
    return (
      <div className="flex min-h-[50vh] w-full items-center justify-center p-4">
        <Card className="w-full max-w-md p-6" role="alert">
          <div className="mb-3 flex items-center gap-2">
            <AlertTriangle className="h-6 w-6 text-amber-600 dark:text-amber-400" aria-hidden />
            <h2 className="text-lg font-semibold">{upgrade ? 'This page could not be loaded' : 'Something went wrong'}</h2>
          </div>
          <p className="text-sm text-slate-600 dark:text-slate-400">
            {upgrade
              ? 'The console may have been updated, or the connection dropped. Reloading usually fixes it.'
              : 'An unexpected error stopped this page. Reloading usually fixes it; your data is safe.'}
          </p>
          <Button className="mt-5" onClick={() => window.location.reload()}>
            Reload
          </Button>
        </Card>
      </div>
    );
  }
}
