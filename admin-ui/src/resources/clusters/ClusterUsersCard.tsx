import { useState } from 'react';
import { useCanAccess, useDataProvider, useNotify, useTranslate } from 'react-admin';
import { useQuery } from '@tanstack/react-query';
import {
  Box,
  IconButton,
  Link as MuiLink,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Tooltip,
} from '@mui/material';
import DeleteIcon from '@mui/icons-material/PersonRemove';
import type { AppDataProvider, ClusterUser } from '../../dataProvider';
import { compareByNameThenEmail, displayName } from '../../lib/displayName';
import { StatusChip } from '../../components/StatusChip';
import { MembersCard } from '../../components/MembersCard';
import { AddClusterUserDialog, EditClusterUserDialog } from './ClusterUserDialogs';
import { useClusterBusinessUnits } from './useClusterBusinessUnits';
import { useBusyAction } from '../../lib/useBusyAction';

/** Members sorted by display name then email: Name (opens the edit dialog), Email, Parent BU, Status, Remove. */
export const ClusterUsersCard = ({ clusterId }: { clusterId: string }) => {
  const translate = useTranslate();
  const notify = useNotify();
  const dataProvider = useDataProvider<AppDataProvider>();
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

  const remove = async () => {
    if (!removing) return;
    await run(async () => {
      await dataProvider.removeClusterUser(removing.id);
      notify('app.members.removed', { type: 'success' });
      refresh();
    }, () => setRemoving(null));
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
      onConfirmRemove={remove}
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
      <Box sx={{ overflowX: 'auto' }}>
        <Table size="small">
          <TableHead>
            <TableRow>
              <TableCell>{translate('app.members.name')}</TableCell>
              <TableCell>{translate('app.members.email')}</TableCell>
              <TableCell>{translate('app.members.parent_bu')}</TableCell>
              <TableCell>{translate('app.members.status')}</TableCell>
              <TableCell align="right">{translate('app.members.remove')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((m) => (
              <TableRow key={m.id} data-testid="cluster-user-row">
                <TableCell>
                  {canManage ? (
                    <MuiLink component="button" type="button" onClick={() => setEditing(m)} underline="hover">
                      {displayName(m)}
                    </MuiLink>
                  ) : (
                    displayName(m)
                  )}
                </TableCell>
                <TableCell>{m.email}</TableCell>
                <TableCell>{m.parent_bu_name ?? ''}</TableCell>
                <TableCell>
                  <StatusChip active={m.is_active} />
                </TableCell>
                <TableCell align="right">
                  {canManage && (
                    <Tooltip title={translate('app.members.remove')}>
                      <IconButton size="small" onClick={() => setRemoving(m)} aria-label={translate('app.members.remove')} data-testid="cluster-user-remove">
                        <DeleteIcon fontSize="small" />
                      </IconButton>
                    </Tooltip>
                  )}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Box>
    </MembersCard>
  );
};
