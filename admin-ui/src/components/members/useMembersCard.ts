import { useState } from 'react';
import type { BusinessUnitUser, ClusterUser } from '../../types';
import { displayName } from '../../lib/displayName';
import { useBusyAction } from '../../lib/useBusyAction';
import { useNotice } from '../../lib/notice';
import { useMembershipRefresh } from './useMembershipRefresh';

/**
 * The state both members cards share: the add dialog, the member being edited, the removal being asked (then sent,
 * said by name), and the notice when an edit met someone else's newer change. Every change refreshes the cards that
 * show memberships.
 */
export function useMembersCard<M extends ClusterUser | BusinessUnitUser>(remove: (member: M) => Promise<void>) {
  const notice = useNotice();
  const refreshMemberships = useMembershipRefresh();
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<M | null>(null);
  const [removing, setRemoving] = useState<M | null>(null);
  const [stale, setStale] = useState(false);
  const [removeBusy, run] = useBusyAction();
  const refresh = () => void refreshMemberships();

  // Never rejects (a failure is shown to the user), so the buttons fire it and forget it.
  const confirmRemove = async () => {
    if (!removing) return;
    await run(
      async () => {
        await remove(removing);
        notice('app.members.removed', { type: 'success', args: { name: displayName(removing) } });
        refresh();
      },
      () => setRemoving(null),
    );
  };

  return {
    adding,
    setAdding,
    editing,
    setEditing,
    /** What the card's frame (`MembersCard`) takes of this state. */
    card: {
      onAdd: () => setAdding(true),
      onEdit: setEditing,
      onRemove: setRemoving,
      removing: removing ? displayName(removing) : null,
      removeBusy,
      onConfirmRemove: () => void confirmRemove(),
      onCancelRemove: () => setRemoving(null),
      stale,
      onStaleClose: () => setStale(false),
    },
    onAdded: () => {
      setAdding(false);
      refresh();
    },
    onSaved: () => {
      setEditing(null);
      refresh();
    },
    onStale: () => {
      setEditing(null);
      setStale(true);
      refresh();
    },
  };
}
