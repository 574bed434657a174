import { useEffect } from 'react';
import { useCanAccess, useTranslate } from 'react-admin';
import { useSearchParams } from 'react-router-dom';
import { useQuery } from '@tanstack/react-query';
import { Typography } from '@mui/material';
import type { ClusterUser } from '../../types';
import { useAppDataProvider } from '../../dataProvider/useAppDataProvider';
import { compareByNameThenEmail } from '../../lib/displayName';
import { ADD_USER_PARAM } from '../../lib/membership';
import { MembersCard } from '../../components/members/MembersCard';
import { roleColumn, useMemberColumns } from '../../components/members/memberColumns';
import { useMembersCard } from '../../components/members/useMembersCard';
import { AddClusterUserDialog } from './AddClusterUserDialog';
import { EditMemberDialog } from '../../components/members/EditMemberDialog';
import { ParentBuSelect } from './ParentBuSelect';
import { useClusterBusinessUnits } from './useClusterBusinessUnits';

/**
 * Members sorted by display name then email, with their role and parent BU. Adding, editing (role and parent BU) and
 * removing refresh every card that shows memberships.
 */
export const ClusterUsersCard = ({ clusterId }: { clusterId: string }) => {
  const translate = useTranslate();
  const dataProvider = useAppDataProvider();
  const { canAccess: canManage } = useCanAccess({ action: 'edit', resource: 'clusters', record: { id: clusterId } });
  const businessUnits = useClusterBusinessUnits(clusterId);
  const members = useQuery({
    queryKey: ['clusterUsers', clusterId],
    queryFn: () => dataProvider.getClusterUsers(clusterId),
  });
  const state = useMembersCard<ClusterUser>((m) => dataProvider.removeClusterUser(m.id));
  const { setAdding, editing } = state;
  const [params, setParams] = useSearchParams();
  const columns = useMemberColumns<ClusterUser>({
    own: [
      roleColumn(translate('app.members.role')),
      { id: 'parent_bu', label: translate('app.members.parent_bu'), render: (m) => m.parent_bu_name ?? '' },
    ],
    canManage: !!canManage,
    onEdit: state.setEditing,
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
  }, [canManage, params, setParams, setAdding]);

  return (
    <MembersCard<ClusterUser>
      testId="cluster-users-card"
      title={translate('resources.clusters.cards.users')}
      canManage={!!canManage}
      addTestId="cluster-user-add"
      members={members}
      rows={[...(members.data ?? [])].sort(compareByNameThenEmail)}
      columns={columns}
      rowTestId="cluster-user-row"
      removeTestId="cluster-user-remove"
      {...state.card}
      dialogs={
        <>
          <AddClusterUserDialog
            open={state.adding}
            clusterId={clusterId}
            businessUnits={businessUnits.data}
            onClose={() => setAdding(false)}
            onAdded={state.onAdded}
          />
          {editing && (
            // The member's current BU is never disabled.
            <EditMemberDialog
              key={editing.id}
              member={editing}
              testId="edit-cluster-user-dialog"
              before={
                <Typography variant="body2" color="text.secondary">
                  {editing.email}
                </Typography>
              }
              initial={editing.parent_bu_id ?? ''}
              field={(parentBu, onChange) => (
                <ParentBuSelect
                  businessUnits={businessUnits.data}
                  value={parentBu}
                  currentBuId={editing.parent_bu_id}
                  onChange={onChange}
                />
              )}
              save={(role, parentBu) =>
                dataProvider.updateClusterUser(editing, { role, parent_bu_id: parentBu || null })
              }
              onClose={() => state.setEditing(null)}
              onSaved={state.onSaved}
              onStale={state.onStale}
            />
          )}
        </>
      }
    />
  );
};
