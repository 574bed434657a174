import { useCallback, useState } from 'react';
import { useNotifyText } from './useNotifyText';
import { useProblemText } from './useProblemText';

/**
 * Runs a user-triggered write with a busy flag for its buttons; a failure becomes an error toast carrying the
 * server's problem detail, so every dialog reports errors the same way.
 */
export function useBusyAction(): [
  busy: boolean,
  run: (action: () => Promise<void>, after?: () => void) => Promise<void>,
] {
  const notifyText = useNotifyText();
  const problemText = useProblemText();
  const [busy, setBusy] = useState(false);
  const run = useCallback(
    async (action: () => Promise<void>, after?: () => void) => {
      setBusy(true);
      try {
        await action();
      } catch (e) {
        // The server's detail, or its field problems in words.
        notifyText(problemText(e), 'error');
      } finally {
        setBusy(false);
        after?.();
      }
    },
    [notifyText, problemText],
  );
  return [busy, run];
}
