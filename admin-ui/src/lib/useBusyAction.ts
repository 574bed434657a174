import { useCallback, useState } from 'react';
import { useNotice } from './notice';

/**
 * Runs a user-triggered write with a busy flag for its buttons; a failure becomes an error toast carrying the
 * server's problem detail, so every dialog reports errors the same way.
 */
export function useBusyAction(): [
  busy: boolean,
  run: (action: () => Promise<void>, after?: () => void) => Promise<void>,
] {
  const notice = useNotice();
  const [busy, setBusy] = useState(false);
  const run = useCallback(
    async (action: () => Promise<void>, after?: () => void) => {
      setBusy(true);
      try {
        await action();
      } catch (e) {
        // The server's detail, or its field problems in words.
        notice('app.common.failed', { type: 'error', error: e });
      } finally {
        setBusy(false);
        after?.();
      }
    },
    [notice],
  );
  return [busy, run];
}
