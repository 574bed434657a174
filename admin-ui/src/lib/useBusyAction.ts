import { useCallback, useState } from 'react';
import { useNotify, useTranslate } from 'react-admin';
import { readableProblem } from './problems';

/**
 * Runs a user-triggered write with a busy flag for its buttons; a failure becomes an error toast carrying the
 * server's problem detail, so every dialog reports errors the same way.
 */
export function useBusyAction(): [busy: boolean, run: (action: () => Promise<void>, after?: () => void) => Promise<void>] {
  const notify = useNotify();
  const translate = useTranslate();
  const [busy, setBusy] = useState(false);
  const run = useCallback(
    async (action: () => Promise<void>, after?: () => void) => {
      setBusy(true);
      try {
        await action();
      } catch (e) {
        // The server's detail, or its field problems in words.
        const reason = readableProblem(e, (field) => field, translate('ra.notification.http_error'));
        notify(reason, { type: 'error', messageArgs: { _: reason } });
      } finally {
        setBusy(false);
        after?.();
      }
    },
    [notify, translate],
  );
  return [busy, run];
}
