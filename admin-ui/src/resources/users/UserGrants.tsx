import { useState } from 'react';
import { useCanAccess, useTranslate } from 'react-admin';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert } from '@mui/material';
import type { Grant, UserAccount } from '../../types';
import { useAppDataProvider } from '../../dataProvider/useAppDataProvider';
import { RecordsCard, useConfirmedRowAction, type CardColumn } from '../../components/card-table';
import { DateTimeText } from '../../components/DateTimeText';
import { useNotice } from '../../lib/notice';
import { AddGrantDialog } from './AddGrantDialog';
import { usePermissionLabel } from './permissionKeys';

/**
 * The Access tab: the account's grants (key, cluster or all clusters, who granted it and when), with Add and Remove
 * for `grant.manage`. The server checks that the caller holds each key on its scope; its refusal is shown as it says it.
 */
export const UserGrants = ({
  user,
  onChanged,
}: {
  user: Pick<UserAccount, 'id' | 'username'>;
  onChanged: () => Promise<unknown>;
}) => {
  const translate = useTranslate();
  const notice = useNotice();
  const permissionLabel = usePermissionLabel();
  const dataProvider = useAppDataProvider();
  const queryClient = useQueryClient();
  const { canAccess: canManage } = useCanAccess({ action: 'edit', resource: 'user-grants' });
  const [adding, setAdding] = useState(false);
  const queryKey = ['userGrants', user.id];
  const grants = useQuery({ queryKey, queryFn: () => dataProvider.getUserGrants(user.id) });
  const scopeOf = (g: Grant) =>
    g.cluster_id
      ? [g.cluster_code, g.cluster_name].filter(Boolean).join(' — ') || g.cluster_id
      : translate('resources.users.grants.all_clusters');
  const said = (key: string, grant: Grant) =>
    notice(key, { type: 'success', args: { permission: permissionLabel(grant.permission_key), name: user.username } });

  const changed = async () => {
    // The grants, the trail, and the users list's grant counts.
    await Promise.all(
      [queryKey, ['auditEvents'], ['users']].map((key) => queryClient.invalidateQueries({ queryKey: key })),
    );
    await onChanged();
  };
  const removal = useConfirmedRowAction<Grant>(
    (g) => dataProvider.removeUserGrant(user.id, g.id),
    (g) => {
      said('resources.users.grants.removed', g);
      return changed();
    },
  );

  const columns: CardColumn<Grant>[] = [
    {
      id: 'permission',
      label: translate('resources.users.grants.permission'),
      render: (g) => permissionLabel(g.permission_key),
    },
    { id: 'scope', label: translate('resources.clusters.name', { smart_count: 1 }), render: scopeOf },
    {
      id: 'granted_by',
      label: translate('resources.users.grants.granted_by'),
      render: (g) => g.granted_by_name ?? '',
      hideBelow: 'md',
    },
    {
      id: 'granted_at',
      label: translate('resources.users.grants.granted_at'),
      render: (g) => <DateTimeText value={g.granted_at} />,
      hideBelow: 'md',
    },
  ];

  return (
    <RecordsCard<Grant>
      testId="user-grants"
      title={translate('resources.users.fields.grant_count')}
      query={grants}
      rows={grants.data?.data}
      columns={columns}
      emptyKey="resources.users.grants.empty"
      emptyTestId="grants-empty"
      rowTestId="grant-row"
      add={canManage && { labelKey: 'resources.users.grants.add', testId: 'grant-add', onClick: () => setAdding(true) }}
      removal={
        canManage && {
          action: removal,
          labelKey: 'resources.users.grants.remove',
          testId: 'grant-remove',
          failureTestId: 'grant-error',
          title: 'resources.users.grants.remove_title',
          content: 'resources.users.grants.remove_content',
          args: (g) => ({ permission: permissionLabel(g.permission_key), name: user.username, scope: scopeOf(g) }),
        }
      }
      alerts={
        grants.data?.is_super_admin && (
          <Alert severity="info">{translate('resources.users.grants.super_admin_note')}</Alert>
        )
      }
    >
      {adding && (
        <AddGrantDialog
          user={user}
          onClose={() => setAdding(false)}
          onAdded={(grant) => {
            setAdding(false);
            said('resources.users.grants.added', grant);
            void changed();
          }}
        />
      )}
    </RecordsCard>
  );
};
