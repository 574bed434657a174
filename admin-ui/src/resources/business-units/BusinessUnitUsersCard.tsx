import { useMemo } from 'react';
import { useCanAccess, useTranslate } from 'react-admin';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { FormControlLabel, Switch } from '@mui/material';
import type { BusinessUnitUser } from '../../types';
import { useAppDataProvider } from '../../dataProvider/useAppDataProvider';
import { compareByNameThenEmail } from '../../lib/displayName';
import { MembersCard } from '../../components/members/MembersCard';
import { roleColumn, useMemberColumns } from '../../components/members/memberColumns';
import { useMembersCard } from '../../components/members/useMembersCard';
import { AddBusinessUnitUserDialog } from './AddBusinessUnitUserDialog';
import { EditMemberDialog } from '../../components/members/EditMemberDialog';

/**
 * Members of the BU: add from the cluster's users, edit role and status (the row updates at once), remove after
 * confirmation; every change refreshes the cards that show memberships.
 */
export const BusinessUnitUsersCard = ({ businessUnitId, clusterId }: { businessUnitId: string; clusterId: string }) => {
  const translate = useTranslate();
  const dataProvider = useAppDataProvider();
  const queryClient = useQueryClient();
  const queryKey = ['businessUnitUsers', businessUnitId];
  const { canAccess: canManage } = useCanAccess({
    action: 'edit',
    resource: 'business-units',
    record: { id: businessUnitId, cluster_id: clusterId },
  });
  const members = useQuery({ queryKey, queryFn: () => dataProvider.getBusinessUnitUsers(businessUnitId) });
  const updateCached = (update: (rows: BusinessUnitUser[]) => BusinessUnitUser[]) =>
    queryClient.setQueryData<BusinessUnitUser[]>(queryKey, (old) => update(old ?? []));
  const state = useMembersCard<BusinessUnitUser>(async (removed) => {
    await dataProvider.removeBusinessUnitUser(removed.id);
    updateCached((old) => old.filter((m) => m.id !== removed.id));
  });
  const { editing } = state;
  const columns = useMemberColumns<BusinessUnitUser>({
    own: [roleColumn(translate('app.members.role'))],
    canManage: !!canManage,
    onEdit: state.setEditing,
  });
  const memberUserIds = useMemo(() => new Set((members.data ?? []).map((m) => m.user_id)), [members.data]);

  return (
    <MembersCard<BusinessUnitUser>
      testId="bu-users-card"
      title={translate('resources.business-units.cards.users')}
      canManage={!!canManage}
      addTestId="bu-user-add"
      members={members}
      rows={[...(members.data ?? [])].sort(compareByNameThenEmail)}
      columns={columns}
      rowTestId="bu-user-row"
      removeTestId="bu-user-remove"
      {...state.card}
      dialogs={
        <>
          <AddBusinessUnitUserDialog
            open={state.adding}
            businessUnitId={businessUnitId}
            clusterId={clusterId}
            memberUserIds={memberUserIds}
            onClose={() => state.setAdding(false)}
            onAdded={state.onAdded}
          />
          {editing && (
            <EditMemberDialog
              member={editing}
              testId="edit-bu-user-dialog"
              initial={editing.is_active}
              field={(active, onChange) => (
                <FormControlLabel
                  control={<Switch checked={active} onChange={(e) => onChange(e.target.checked)} />}
                  label={translate('app.members.membership_active')}
                />
              )}
              save={(role, active) => dataProvider.updateBusinessUnitUser(editing, { role, is_active: active })}
              onClose={() => state.setEditing(null)}
              onSaved={(updated) => {
                // The row shows the change at once; the refresh confirms it.
                updateCached((old) => old.map((m) => (m.id === updated.id ? { ...m, ...updated } : m)));
                state.onSaved();
              }}
              onStale={state.onStale}
            />
          )}
        </>
      }
    />
  );
};
