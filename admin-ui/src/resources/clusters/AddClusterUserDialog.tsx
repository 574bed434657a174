import { useState } from 'react';
import { useNotify, useTranslate } from 'react-admin';
import { useInfiniteQuery } from '@tanstack/react-query';
import {
  Box,
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  List,
  ListItemButton,
  ListItemText,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import type { BusinessUnit, MembershipRole, PlatformUser } from '../../types';
import { useAppDataProvider } from '../../dataProvider/useAppDataProvider';
import { useDebouncedValue } from '../../lib/useDebouncedValue';
import { displayName } from '../../lib/displayName';
import { DEFAULT_ROLE, isNearScrollEnd } from '../../lib/membership';
import { useBusyAction } from '../../lib/useBusyAction';
import { RoleSelect } from '../../components/members/RoleSelect';
import { ParentBuSelect } from './ParentBuSelect';

const USER_PAGE_SIZE = 10;

/** Global user search (pages of 10, more within 40 px of the end) minus the cluster's members; role and optional parent BU. */
export const AddClusterUserDialog = (props: {
  open: boolean;
  clusterId: string;
  businessUnits: BusinessUnit[];
  onClose: () => void;
  onAdded: () => void;
}) => {
  const translate = useTranslate();
  const notify = useNotify();
  const dataProvider = useAppDataProvider();
  const [search, setSearch] = useState('');
  const debounced = useDebouncedValue(search);
  const [selected, setSelected] = useState<PlatformUser | null>(null);
  const [role, setRole] = useState<MembershipRole>(DEFAULT_ROLE);
  const [parentBu, setParentBu] = useState('');
  const [saving, run] = useBusyAction();

  const users = useInfiniteQuery({
    queryKey: ['userSearch', props.clusterId, debounced],
    enabled: props.open,
    initialPageParam: 1,
    queryFn: ({ pageParam }) =>
      dataProvider.searchUsers({
        search: debounced,
        page: pageParam,
        perpage: USER_PAGE_SIZE,
        exclude_cluster_id: props.clusterId,
      }),
    getNextPageParam: (last) => (last.paginate.page < last.paginate.pages ? last.paginate.page + 1 : undefined),
  });
  const rows = users.data?.pages.flatMap((p) => p.data) ?? [];

  const reset = () => {
    setSearch('');
    setSelected(null);
    setRole(DEFAULT_ROLE);
    setParentBu('');
  };
  const close = () => {
    reset();
    props.onClose();
  };

  // Never rejects (a failure is shown to the user), so the buttons fire it and forget it.
  const submit = async () => {
    if (!selected) return;
    await run(async () => {
      await dataProvider.addClusterUser({
        user_id: selected.id,
        cluster_id: props.clusterId,
        role,
        is_active: true,
        ...(parentBu ? { parent_bu_id: parentBu } : {}),
      });
      notify('app.members.added', { type: 'success', messageArgs: { name: displayName(selected) } });
      reset();
      props.onAdded();
    });
  };

  return (
    <Dialog open={props.open} onClose={close} fullWidth maxWidth="sm" data-testid="add-cluster-user-dialog">
      <DialogTitle>{translate('app.members.add_title')}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ mt: 1 }}>
          <TextField
            size="small"
            autoFocus
            label={translate('app.members.search_users')}
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            inputProps={{ 'data-testid': 'user-search' }}
          />
          <Box
            sx={{ height: 260, overflowY: 'auto', border: 1, borderColor: 'divider', borderRadius: 1 }}
            data-testid="user-search-results"
            onScroll={(e) => {
              if (isNearScrollEnd(e.currentTarget) && users.hasNextPage && !users.isFetchingNextPage)
                void users.fetchNextPage();
            }}
          >
            {users.isError ? (
              <Typography color="error" sx={{ p: 2 }}>
                {translate('app.common.load_error')}
              </Typography>
            ) : users.isPending ? (
              <Box sx={{ p: 2, textAlign: 'center' }}>
                <CircularProgress size={24} />
              </Box>
            ) : rows.length === 0 ? (
              <Typography color="text.secondary" sx={{ p: 2 }}>
                {translate('app.members.no_users_found')}
              </Typography>
            ) : (
              <List dense disablePadding>
                {rows.map((u) => (
                  <ListItemButton
                    key={u.id}
                    selected={selected?.id === u.id}
                    onClick={() => setSelected(u)}
                    data-testid="user-option"
                  >
                    <ListItemText primary={displayName(u)} secondary={`${u.username} · ${u.email}`} />
                  </ListItemButton>
                ))}
                {users.isFetchingNextPage && (
                  <Box sx={{ p: 1, textAlign: 'center' }}>
                    <CircularProgress size={18} />
                  </Box>
                )}
              </List>
            )}
          </Box>
          <RoleSelect value={role} onChange={setRole} />
          <ParentBuSelect businessUnits={props.businessUnits} value={parentBu} onChange={setParentBu} />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={close}>{translate('ra.action.cancel')}</Button>
        <Button
          variant="contained"
          disabled={!selected || saving}
          onClick={() => void submit()}
          data-testid="add-user-submit"
        >
          {translate('ra.action.add')}
        </Button>
      </DialogActions>
    </Dialog>
  );
};
