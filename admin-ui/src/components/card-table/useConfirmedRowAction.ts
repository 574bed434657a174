import { useState } from 'react';
import { useReason } from '../../lib/notice';

/**
 * A row's action that asks first (remove a grant, revoke a token, delete a mapping): the row waiting for its
 * confirmation, the wait while the call runs, and a refusal in words, shown in place above the table rather than as a
 * toast that vanishes. `done` runs after the call succeeds (the success notice, the refetch).
 */
export function useConfirmedRowAction<R>(run: (row: R) => Promise<unknown>, done: (row: R) => unknown) {
  const reason = useReason();
  const [pending, setPending] = useState<R | null>(null);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState('');

  // Never rejects (a failure is shown to the user), so the confirmation fires it and forgets it.
  const confirm = async () => {
    if (pending === null) return;
    setBusy(true);
    setFailure('');
    try {
      await run(pending);
      await done(pending);
    } catch (e) {
      setFailure(reason(e));
    } finally {
      setBusy(false);
      setPending(null);
    }
  };

  return {
    pending,
    busy,
    failure,
    ask: (row: R) => setPending(row),
    cancel: () => setPending(null),
    clearFailure: () => setFailure(''),
    confirm: () => void confirm(),
  };
}

export type ConfirmedRowAction<R> = ReturnType<typeof useConfirmedRowAction<R>>;
