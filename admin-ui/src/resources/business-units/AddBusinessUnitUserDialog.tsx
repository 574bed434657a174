import { useState } from 'react';
import { useGetOne, useNotify, useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import { useQuery } from '@tanstack/react-query';
import {
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  LinearProgress,
  Link as MuiLink,
  List,
  ListItemButton,
  ListItemText,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import type { Cluster, ClusterUser, MembershipRole } from '../../types';
import { useAppDataProvider } from '../../dataProvider/useAppDataProvider';
import { compareByNameThenEmail, displayName, matchesUserSearch } from '../../lib/displayName';
import { DEFAULT_ROLE, clusterAddUserPath } from '../../lib/membership';
import { useBusyAction } from '../../lib/useBusyAction';
import { RoleSelect } from '../../components/members/RoleSelect';
import { ErrorState } from '../../components/ErrorState';

/** Why no user can be picked, in the words the dialog says it. */
type NoneToPick = 'cluster_has_no_users' | 'all_are_members' | 'no_match';

/**
 * Pick from the cluster's users not yet in the BU (filtered here by username, email and full name), with a role. A
 * business unit takes its members from its cluster's users, as the import does (ADR 0021): the dialog says so, and
 * when nobody is left to pick it says why and links to the cluster's page, where Add user searches every account.
 */
export const AddBusinessUnitUserDialog = (props: {
  open: boolean;
  businessUnitId: string;
  clusterId: string;
  memberUserIds: Set<string>;
  onClose: () => void;
  onAdded: () => void;
}) => {
  const translate = useTranslate();
  const notify = useNotify();
  const dataProvider = useAppDataProvider();
  const [search, setSearch] = useState('');
  const [selected, setSelected] = useState<ClusterUser | null>(null);
  const [role, setRole] = useState<MembershipRole>(DEFAULT_ROLE);
  const [saving, run] = useBusyAction();
  const clusterUsers = useQuery({
    queryKey: ['clusterUsers', props.clusterId],
    queryFn: () => dataProvider.getClusterUsers(props.clusterId),
    enabled: props.open && !!props.clusterId,
  });
  const { data: cluster } = useGetOne<Cluster>('clusters', { id: props.clusterId }, { enabled: props.open });
  const clusterName = cluster?.name ?? translate('members.this_cluster');
  const notMembers = (clusterUsers.data ?? []).filter((u) => !props.memberUserIds.has(u.user_id));
  const candidates = notMembers.filter((u) => matchesUserSearch(u, search)).sort(compareByNameThenEmail);
  const none: NoneToPick | null =
    clusterUsers.data?.length === 0
      ? 'cluster_has_no_users'
      : notMembers.length === 0
        ? 'all_are_members'
        : candidates.length === 0
          ? 'no_match'
          : null;

  const reset = () => {
    setSearch('');
    setSelected(null);
    setRole(DEFAULT_ROLE);
  };
  const close = () => {
    reset();
    props.onClose();
  };
  // Never rejects (a failure is shown to the user), so the buttons fire it and forget it.
  const submit = async () => {
    if (!selected) return;
    await run(async () => {
      await dataProvider.addBusinessUnitUser({
        user_id: selected.user_id,
        business_unit_id: props.businessUnitId,
        role,
      });
      notify('app.members.added', { type: 'success', messageArgs: { name: displayName(selected) } });
      reset();
      props.onAdded();
    });
  };

  return (
    <Dialog open={props.open} onClose={close} fullWidth maxWidth="sm" data-testid="add-bu-user-dialog">
      <DialogTitle>{translate('app.members.add_title')}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ mt: 1 }}>
          <TextField
            size="small"
            autoFocus
            label={translate('app.members.search_cluster_users')}
            helperText={translate('members.from_cluster', { cluster: clusterName })}
            value={search}
            onChange={(e) => setSearch(e.target.value)}
          />
          <Box sx={{ height: 240, overflowY: 'auto', border: 1, borderColor: 'divider', borderRadius: 1 }}>
            {clusterUsers.isPending ? (
              <LinearProgress />
            ) : clusterUsers.isError ? (
              <ErrorState error={clusterUsers.error} onRetry={() => void clusterUsers.refetch()} />
            ) : none ? (
              <Stack spacing={1} sx={{ p: 2 }} data-testid="bu-user-none" data-reason={none}>
                <Typography color="text.secondary">
                  {translate(`members.${none}`, { cluster: clusterName, search })}
                </Typography>
                {none !== 'no_match' && (
                  <MuiLink
                    component={Link}
                    to={clusterAddUserPath(props.clusterId)}
                    onClick={close}
                    underline="hover"
                    data-testid="bu-user-add-to-cluster"
                  >
                    {translate('members.add_to_cluster', { cluster: clusterName })}
                  </MuiLink>
                )}
              </Stack>
            ) : (
              <List dense disablePadding>
                {candidates.map((u) => (
                  <ListItemButton
                    key={u.user_id}
                    selected={selected?.user_id === u.user_id}
                    onClick={() => setSelected(u)}
                    data-testid="bu-user-option"
                  >
                    <ListItemText primary={displayName(u)} secondary={`${u.username} · ${u.email}`} />
                  </ListItemButton>
                ))}
              </List>
            )}
          </Box>
          <RoleSelect value={role} onChange={setRole} />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={close}>{translate('ra.action.cancel')}</Button>
        <Button
          variant="contained"
          disabled={!selected || saving}
          onClick={() => void submit()}
          data-testid="add-bu-user-submit"
        >
          {translate('ra.action.add')}
        </Button>
      </DialogActions>
    </Dialog>
  );
};
