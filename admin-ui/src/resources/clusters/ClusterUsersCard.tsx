import { useState } from 'react';
import { useCanAccess, useNotify, useTranslate } from 'react-admin';
import { useQuery } from '@tanstack/react-query';
import type { ClusterUser } from '../../types';
import { useAppDataProvider } from '../../dataProvider/useAppDataProvider';
import { compareByNameThenEmail, displayName } from '../../lib/displayName';
import { useBusyAction } from '../../lib/useBusyAction';
import { MembersCard } from '../../components/members/MembersCard';
import { MembersTable } from '../../components/members/MembersTable';
import { AddClusterUserDialog } from './AddClusterUserDialog';
import { EditClusterUserDialog } from './EditClusterUserDialog';
import { useClusterBusinessUnits } from './useClusterBusinessUnits';

const parentBuColumn = { label: 'app.members.parent_bu', render: (m: ClusterUser) => m.parent_bu_name ?? '' };

/** Members sorted by display name then email; adding, editing and removing refetch the members and the BU counts. */
export const ClusterUsersCard = ({ clusterId }: { clusterId: string }) => {
  const translate = useTranslate();
  const notify = useNotify();
  const dataProvider = useAppDataProvider();
  const { canAccess: canManage } = useCanAccess({ action: 'edit', resource: 'clusters', record: { id: clusterId } });
  const businessUnits = useClusterBusinessUnits(clusterId);
  const members = useQuery({
    queryKey: ['clusterUsers', clusterId],
    queryFn: () => dataProvider.getClusterUsers(clusterId),
  });
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<ClusterUser | null>(null);
  const [removing, setRemoving] = useState<ClusterUser | null>(null);
  const [removeBusy, run] = useBusyAction();

  const rows = [...(members.data ?? [])].sort(compareByNameThenEmail);
  const refresh = () => {
    void members.refetch();
    void businessUnits.refetch();
  };

  // Never rejects (a failure is shown to the user), so the buttons fire it and forget it.
  const remove = async () => {
    if (!removing) return;
    await run(
      async () => {
        await dataProvider.removeClusterUser(removing.id);
        notify('app.members.removed', { type: 'success', messageArgs: { name: displayName(removing) } });
        refresh();
      },
      () => setRemoving(null),
    );
  };

  return (
    <MembersCard
      testId="cluster-users-card"
      title={translate('resources.clusters.cards.users')}
      canManage={!!canManage}
      addTestId="cluster-user-add"
      onAdd={() => setAdding(true)}
      members={members}
      isEmpty={rows.length === 0}
      removing={removing ? displayName(removing) : null}
      removeBusy={removeBusy}
      onConfirmRemove={() => void remove()}
      onCancelRemove={() => setRemoving(null)}
      dialogs={
        <>
          <AddClusterUserDialog
            open={adding}
            clusterId={clusterId}
            businessUnits={businessUnits.data}
            onClose={() => setAdding(false)}
            onAdded={() => {
              setAdding(false);
              refresh();
            }}
          />
          {editing && (
            <EditClusterUserDialog
              key={editing.id}
              member={editing}
              businessUnits={businessUnits.data}
              onClose={() => setEditing(null)}
              onSaved={() => {
                setEditing(null);
                refresh();
              }}
            />
          )}
        </>
      }
    >
      <MembersTable
        rows={rows}
        detail={parentBuColumn}
        canManage={!!canManage}
        onEdit={setEditing}
        onRemove={setRemoving}
        rowTestId="cluster-user-row"
        removeTestId="cluster-user-remove"
      />
    </MembersCard>
  );
};
