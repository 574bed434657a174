import { useState } from 'react';
import { useNotify, useTranslate } from 'react-admin';
import { useQuery } from '@tanstack/react-query';
import {
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  LinearProgress,
  List,
  ListItemButton,
  ListItemText,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import type { ClusterUser, MembershipRole } from '../../types';
import { useAppDataProvider } from '../../dataProvider/useAppDataProvider';
import { compareByNameThenEmail, displayName, matchesUserSearch } from '../../lib/displayName';
import { DEFAULT_ROLE } from '../../lib/membership';
import { useBusyAction } from '../../lib/useBusyAction';
import { RoleSelect } from '../../components/members/RoleSelect';

/** Pick from the cluster's users not yet in the BU (filtered here by username, email and full name), with a role. */
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
  const candidates = (clusterUsers.data ?? [])
    .filter((u) => !props.memberUserIds.has(u.user_id) && matchesUserSearch(u, search))
    .sort(compareByNameThenEmail);

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
            value={search}
            onChange={(e) => setSearch(e.target.value)}
          />
          <Box sx={{ height: 240, overflowY: 'auto', border: 1, borderColor: 'divider', borderRadius: 1 }}>
            {clusterUsers.isPending ? (
              <LinearProgress />
            ) : clusterUsers.isError ? (
              <Typography color="error" sx={{ p: 2 }}>
                {translate('app.common.load_error')}
              </Typography>
            ) : candidates.length === 0 ? (
              <Typography color="text.secondary" sx={{ p: 2 }}>
                {translate('app.members.no_candidates')}
              </Typography>
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
