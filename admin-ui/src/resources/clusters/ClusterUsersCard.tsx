import { useEffect, useState } from 'react';
import { useCanAccess, useNotify, useTranslate } from 'react-admin';
import { useSearchParams } from 'react-router-dom';
import { useQuery } from '@tanstack/react-query';
import type { ClusterUser } from '../../types';
import { useAppDataProvider } from '../../dataProvider/useAppDataProvider';
import { compareByNameThenEmail, displayName } from '../../lib/displayName';
import { useBusyAction } from '../../lib/useBusyAction';
import { ADD_USER_PARAM } from '../../lib/membership';
import { MembersCard } from '../../components/members/MembersCard';
import { roleColumn, useMemberColumns } from '../../components/members/memberColumns';
import { useMembershipRefresh } from '../../components/members/useMembershipRefresh';
import { AddClusterUserDialog } from './AddClusterUserDialog';
import { EditClusterUserDialog } from './EditClusterUserDialog';
import { useClusterBusinessUnits } from './useClusterBusinessUnits';

/**
 * Members sorted by display name then email, with their role and parent BU. Adding, editing (role and parent BU) and
 * removing refresh every card that shows memberships.
 */
export const ClusterUsersCard = ({ clusterId }: { clusterId: string }) => {
  const translate = useTranslate();
  const notify = useNotify();
  const dataProvider = useAppDataProvider();
  const refreshMemberships = useMembershipRefresh();
  const { canAccess: canManage } = useCanAccess({ action: 'edit', resource: 'clusters', record: { id: clusterId } });
  const businessUnits = useClusterBusinessUnits(clusterId);
  const members = useQuery({
    queryKey: ['clusterUsers', clusterId],
    queryFn: () => dataProvider.getClusterUsers(clusterId),
  });
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<ClusterUser | null>(null);
  const [removing, setRemoving] = useState<ClusterUser | null>(null);
  const [stale, setStale] = useState(false);
  const [removeBusy, run] = useBusyAction();
  const [params, setParams] = useSearchParams();
  const columns = useMemberColumns<ClusterUser>({
    own: [
      roleColumn(translate('app.members.role')),
      { id: 'parent_bu', label: translate('app.members.parent_bu'), render: (m) => m.parent_bu_name ?? '' },
    ],
    canManage: !!canManage,
    onEdit: setEditing,
  });

  useEffect(() => {
    if (!canManage || !params.has(ADD_USER_PARAM)) return;
    setAdding(true);
    setParams(
      (p) => {
        p.delete(ADD_USER_PARAM);
        return p;
      },
      { replace: true },
    );
  }, [canManage, params, setParams]);

  const rows = [...(members.data ?? [])].sort(compareByNameThenEmail);
  const refresh = () => void refreshMemberships();

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
    <MembersCard<ClusterUser>
      testId="cluster-users-card"
      title={translate('resources.clusters.cards.users')}
      canManage={!!canManage}
      addTestId="cluster-user-add"
      onAdd={() => setAdding(true)}
      members={members}
      rows={rows}
      columns={columns}
      rowTestId="cluster-user-row"
      onEdit={setEditing}
      onRemove={setRemoving}
      removeTestId="cluster-user-remove"
      removing={removing ? displayName(removing) : null}
      removeBusy={removeBusy}
      onConfirmRemove={() => void remove()}
      onCancelRemove={() => setRemoving(null)}
      stale={stale}
      onStaleClose={() => setStale(false)}
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
              onStale={() => {
                setEditing(null);
                setStale(true);
                refresh();
              }}
            />
          )}
        </>
      }
    />
  );
};
