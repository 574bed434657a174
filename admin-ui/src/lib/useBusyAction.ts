import { useCallback, useState } from 'react';
import { useNotify } from 'react-admin';

/**
 * Runs a user-triggered write with a busy flag for its buttons; a failure becomes an error toast carrying the
 * server's problem detail, so every dialog reports errors the same way.
 */
export function useBusyAction(): [busy: boolean, run: (action: () => Promise<void>, after?: () => void) => Promise<void>] {
  const notify = useNotify();
  const [busy, setBusy] = useState(false);
  const run = useCallback(
    async (action: () => Promise<void>, after?: () => void) => {
      setBusy(true);
      try {
        await action();
      } catch (e) {
        notify(e instanceof Error ? e.message : 'ra.notification.http_error', { type: 'error' });
      } finally {
        setBusy(false);
        after?.();
      }
    },
    [notify],
  );
  return [busy, run];
}
