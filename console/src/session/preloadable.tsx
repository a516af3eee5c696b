import { lazy, type ComponentType } from 'react';

/**
 * React.lazy that can be fetched ahead of need. Once the module is in, the component renders
 * it directly: React.lazy alone suspends on its first render even when the module is already
 * loaded, and React holds a revealed Suspense boundary back for up to 300 ms, which is the
 * blank moment after login this avoids.
 */
export function preloadable<P extends object>(load: () => Promise<{ default: ComponentType<P> }>) {
  let loaded: ComponentType<P> | undefined;
  let pending: Promise<{ default: ComponentType<P> }> | undefined;
  const fetchModule = () =>
    (pending ??= load().then(
      (m) => {
        loaded = m.default;
        return m;
      },
      (e: unknown) => {
        pending = undefined; // the route's own import tries again (and its error boundary recovers)
        throw e;
      },
    ));
  const Lazy = lazy(fetchModule);
  function Preloadable(props: P) {
    const Component = loaded ?? Lazy;
    return <Component {...props} />;
  }
  return Object.assign(Preloadable, { preload: () => void fetchModule().catch(() => undefined) });
}
