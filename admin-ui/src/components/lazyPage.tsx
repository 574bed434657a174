import { lazy, Suspense, type ComponentType, type ReactElement } from 'react';
import { PageLoading } from '../layout/PageLoading';

/**
 * A screen loaded on first use: its code (and the libraries only it needs) stays out of the first download, and
 * react-admin's loading state shows while the chunk arrives.
 */
export function lazyPage<P extends object>(
  load: () => Promise<ComponentType<P>>,
): ((props: P) => ReactElement) & { preload: () => void } {
  let loading: Promise<{ default: ComponentType<P> }> | null = null;
  const fetchOnce = () => (loading ??= load().then((component) => ({ default: component })));
  const Lazy = lazy(fetchOnce);
  const Page = (props: P) => (
    <Suspense fallback={<PageLoading />}>
      <Lazy {...props} />
    </Suspense>
  );
  /** Fetches the screen's code ahead of its first use (the chunk is then ready when the user gets there). */
  const preload = () => {
    fetchOnce().catch(() => {
      // A failed prefetch is retried by the first real use.
      loading = null;
    });
  };
  return Object.assign(Page, { preload });
}
