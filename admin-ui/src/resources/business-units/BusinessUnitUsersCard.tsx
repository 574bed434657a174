import { useMemo, useState } from 'react';
import { useCanAccess, useNotify, useTranslate } from 'react-admin';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { BusinessUnitUser } from '../../types';
import { useAppDataProvider } from '../../dataProvider/useAppDataProvider';
import { compareByNameThenEmail, displayName } from '../../lib/displayName';
import { useBusyAction } from '../../lib/useBusyAction';
import { MembersCard } from '../../components/members/MembersCard';
import { roleColumn, useMemberColumns } from '../../components/members/memberColumns';
import { useMembershipRefresh } from '../../components/members/useMembershipRefresh';
import { AddBusinessUnitUserDialog } from './AddBusinessUnitUserDialog';
import { EditBusinessUnitUserDialog } from './EditBusinessUnitUserDialog';

/**
 * Members of the BU: add from the cluster's users, edit role and status (the row updates at once), remove after
 * confirmation; every change refreshes the cards that show memberships.
 */
export const BusinessUnitUsersCard = ({ businessUnitId, clusterId }: { businessUnitId: string; clusterId: string }) => {
  const translate = useTranslate();
  const notify = useNotify();
  const dataProvider = useAppDataProvider();
  const queryClient = useQueryClient();
  const refreshMemberships = useMembershipRefresh();
  const queryKey = ['businessUnitUsers', businessUnitId];
  const { canAccess: canManage } = useCanAccess({
    action: 'edit',
    resource: 'business-units',
    record: { id: businessUnitId, cluster_id: clusterId },
  });
  const members = useQuery({ queryKey, queryFn: () => dataProvider.getBusinessUnitUsers(businessUnitId) });
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<BusinessUnitUser | null>(null);
  const [removing, setRemoving] = useState<BusinessUnitUser | null>(null);
  const [stale, setStale] = useState(false);
  const [busy, run] = useBusyAction();
  const columns = useMemberColumns<BusinessUnitUser>({
    own: [roleColumn(translate('app.members.role'))],
    canManage: !!canManage,
    onEdit: setEditing,
  });
  const rows = [...(members.data ?? [])].sort(compareByNameThenEmail);
  const memberUserIds = useMemo(() => new Set((members.data ?? []).map((m) => m.user_id)), [members.data]);
  const updateCached = (update: (rows: BusinessUnitUser[]) => BusinessUnitUser[]) =>
    queryClient.setQueryData<BusinessUnitUser[]>(queryKey, (old) => update(old ?? []));
  const refresh = () => void refreshMemberships();

  // Never rejects (a failure is shown to the user), so the buttons fire it and forget it.
  const remove = async () => {
    if (!removing) return;
    await run(
      async () => {
        await dataProvider.removeBusinessUnitUser(removing.id);
        updateCached((old) => old.filter((m) => m.id !== removing.id));
        notify('app.members.removed', { type: 'success', messageArgs: { name: displayName(removing) } });
        refresh();
      },
      () => setRemoving(null),
    );
  };

  return (
    <MembersCard<BusinessUnitUser>
      testId="bu-users-card"
      title={translate('resources.business-units.cards.users')}
      canManage={!!canManage}
      addTestId="bu-user-add"
      onAdd={() => setAdding(true)}
      members={members}
      rows={rows}
      columns={columns}
      rowTestId="bu-user-row"
      onEdit={setEditing}
      onRemove={setRemoving}
      removeTestId="bu-user-remove"
      removing={removing ? displayName(removing) : null}
      removeBusy={busy}
      onConfirmRemove={() => void remove()}
      onCancelRemove={() => setRemoving(null)}
      stale={stale}
      onStaleClose={() => setStale(false)}
      dialogs={
        <>
          <AddBusinessUnitUserDialog
            open={adding}
            businessUnitId={businessUnitId}
            clusterId={clusterId}
            memberUserIds={memberUserIds}
            onClose={() => setAdding(false)}
            onAdded={() => {
              setAdding(false);
              refresh();
            }}
          />
          {editing && (
            <EditBusinessUnitUserDialog
              member={editing}
              onClose={() => setEditing(null)}
              onSaved={(updated) => {
                updateCached((old) => old.map((m) => (m.id === updated.id ? { ...m, ...updated } : m)));
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
