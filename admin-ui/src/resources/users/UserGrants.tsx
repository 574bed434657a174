import { useState } from 'react';
import { Confirm, useCanAccess, useTranslate } from 'react-admin';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, IconButton, Stack, Tooltip } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/Delete';
import type { Grant, UserAccount } from '../../types';
import { useAppDataProvider } from '../../dataProvider/useAppDataProvider';
import { CardTable, TableCard, type CardColumn } from '../../components/card-table';
import { DateTimeText } from '../../components/DateTimeText';
import { useNotice, useReason } from '../../lib/notice';
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
  const problemText = useReason();
  const dataProvider = useAppDataProvider();
  const queryClient = useQueryClient();
  const { canAccess: canManage } = useCanAccess({ action: 'edit', resource: 'user-grants' });
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<Grant | null>(null);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState('');
  const queryKey = ['userGrants', user.id];
  const grants = useQuery({ queryKey, queryFn: () => dataProvider.getUserGrants(user.id) });
  const scopeOf = (g: Grant) =>
    g.cluster_id
      ? [g.cluster_code, g.cluster_name].filter(Boolean).join(' — ') || g.cluster_id
      : translate('resources.users.grants.all_clusters');

  const changed = async () => {
    // The grants, the trail, and the users list's grant counts.
    await Promise.all(
      [queryKey, ['auditEvents'], ['users']].map((key) => queryClient.invalidateQueries({ queryKey: key })),
    );
    await onChanged();
  };

  // Never rejects (a failure is shown to the user), so the buttons fire it and forget it.
  const remove = async (grant: Grant) => {
    setBusy(true);
    setFailure('');
    try {
      await dataProvider.removeUserGrant(user.id, grant.id);
      notice('resources.users.grants.removed', {
        type: 'success',
        args: { permission: permissionLabel(grant.permission_key), name: user.username },
      });
      await changed();
    } catch (e) {
      setFailure(problemText(e));
    } finally {
      setBusy(false);
      setRemoving(null);
    }
  };

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
    <TableCard
      testId="user-grants"
      title={translate('resources.users.fields.grant_count')}
      refreshing={grants.isFetching && !grants.isPending}
      action={
        canManage && (
          <Button
            variant="contained"
            size="small"
            startIcon={<AddIcon />}
            onClick={() => setAdding(true)}
            data-testid="grant-add"
          >
            {translate('resources.users.grants.add')}
          </Button>
        )
      }
    >
      <Stack spacing={2}>
        {grants.data?.is_super_admin && (
          <Alert severity="info">{translate('resources.users.grants.super_admin_note')}</Alert>
        )}
        {failure && (
          <Alert severity="error" onClose={() => setFailure('')} data-testid="grant-error">
            {failure}
          </Alert>
        )}
        <CardTable<Grant>
          rows={grants.data?.data}
          columns={columns}
          rowKey={(g) => g.id}
          loading={grants.isPending}
          error={grants.error}
          onRetry={() => void grants.refetch()}
          empty={translate('resources.users.grants.empty')}
          emptyTestId="grants-empty"
          rowTestId="grant-row"
          actionsLabel={canManage ? translate('resources.users.grants.remove') : undefined}
          actions={
            canManage
              ? (g) => (
                  <Tooltip title={translate('resources.users.grants.remove')}>
                    <IconButton
                      size="small"
                      aria-label={translate('resources.users.grants.remove')}
                      onClick={() => setRemoving(g)}
                      data-testid="grant-remove"
                    >
                      <DeleteIcon fontSize="small" />
                    </IconButton>
                  </Tooltip>
                )
              : undefined
          }
        />
      </Stack>
      {adding && (
        <AddGrantDialog
          user={user}
          onClose={() => setAdding(false)}
          onAdded={(grant) => {
            setAdding(false);
            notice('resources.users.grants.added', {
              type: 'success',
              args: { permission: permissionLabel(grant.permission_key), name: user.username },
            });
            void changed();
          }}
        />
      )}
      <Confirm
        isOpen={removing !== null}
        loading={busy}
        title="resources.users.grants.remove_title"
        content="resources.users.grants.remove_content"
        translateOptions={{
          permission: removing ? permissionLabel(removing.permission_key) : '',
          name: user.username,
          scope: removing ? scopeOf(removing) : '',
        }}
        onClose={() => setRemoving(null)}
        onConfirm={() => {
          if (removing) void remove(removing);
        }}
      />
    </TableCard>
  );
};
