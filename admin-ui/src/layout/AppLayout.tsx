import { useEffect, type ReactNode } from 'react';
import { AppBar, Layout, type AppBarProps } from 'react-admin';
import { AppMenu } from './AppMenu';
import { SessionExpiredDialog } from '../components/SessionExpiredDialog';
import { RESOURCES } from '../resources/registry';

/** Once the first screen is up and the browser is idle, fetch the list screens, so the first visit of one is quick. */
function usePrefetchLists() {
  useEffect(() => {
    const prefetch = () => RESOURCES.forEach((r) => r.list.preload?.());
    const idle = globalThis.requestIdleCallback;
    if (idle) {
      const handle = idle(prefetch, { timeout: 3000 });
      return () => globalThis.cancelIdleCallback?.(handle);
    }
    const timer = setTimeout(prefetch, 1500);
    return () => clearTimeout(timer);
  }, []);
}

/** The app bar in the primary colour, like the primary buttons and the first chart series: one palette. */
const PrimaryAppBar = (props: AppBarProps) => <AppBar {...props} color="primary" />;

export const AppLayout = ({ children }: { children: ReactNode }) => {
  usePrefetchLists();
  return (
    // The layout (react-admin makes it `fit-content`) and its content column may be narrower than the widest table:
    // a wide table scrolls inside its card, with its row actions kept in view, and the page never scrolls sideways.
    <Layout menu={AppMenu} appBar={PrimaryAppBar} sx={{ minWidth: 0, '& .RaLayout-content': { minWidth: 0 } }}>
      {children}
      <SessionExpiredDialog />
    </Layout>
  );
};
