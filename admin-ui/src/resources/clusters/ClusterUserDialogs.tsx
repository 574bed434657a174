import { useState } from 'react';
import { useDataProvider, useNotify, useTranslate } from 'react-admin';
import { useInfiniteQuery } from '@tanstack/react-query';
import {
  Box,
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControl,
  InputLabel,
  List,
  ListItemButton,
  ListItemText,
  MenuItem,
  Select,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import type { AppDataProvider, ClusterUser, PlatformUser } from '../../dataProvider';
import { useDebouncedValue } from '../../lib/useDebouncedValue';
import { displayName } from '../../lib/displayName';
import { DEFAULT_ROLE, MEMBERSHIP_ROLES, isBuOptionDisabled, isNearScrollEnd, type Role } from '../../lib/membership';
import { formatCountOfMax } from '../../lib/licence';
import type { ListRow } from '../../components/list/AdminList';
import { useBusyAction } from '../../lib/useBusyAction';

const USER_PAGE_SIZE = 10;

const RoleSelect = ({ value, onChange }: { value: Role; onChange: (r: Role) => void }) => {
  const translate = useTranslate();
  return (
    <FormControl fullWidth size="small">
      <InputLabel id="role-label">{translate('app.members.role')}</InputLabel>
      <Select
        labelId="role-label"
        label={translate('app.members.role')}
        value={value}
        onChange={(e) => onChange(e.target.value as Role)}
        data-testid="role-select"
      >
        {MEMBERSHIP_ROLES.map((r) => (
          <MenuItem key={r} value={r}>
            {translate(`app.members.roles.${r}`)}
          </MenuItem>
        ))}
      </Select>
    </FormControl>
  );
};

const ParentBuSelect = (props: {
  businessUnits: ListRow[];
  value: string;
  currentBuId?: string | null;
  onChange: (v: string) => void;
}) => {
  const translate = useTranslate();
  return (
    <FormControl fullWidth size="small">
      <InputLabel id="parent-bu-label">{translate('app.members.parent_bu')}</InputLabel>
      <Select
        labelId="parent-bu-label"
        label={translate('app.members.parent_bu')}
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
        data-testid="parent-bu-select"
      >
        <MenuItem value="">
          <em>{translate('app.members.no_parent_bu')}</em>
        </MenuItem>
        {props.businessUnits.map((bu) => {
          const disabled = isBuOptionDisabled(
            { id: String(bu.id), users_count: bu.users_count as number, max_license_users: bu.max_license_users },
            props.currentBuId,
          );
          return (
            <MenuItem key={bu.id} value={String(bu.id)} disabled={disabled}>
              {bu.name} ({formatCountOfMax(bu.users_count as number, bu.max_license_users)})
              {disabled ? ` — ${translate('app.members.bu_full')}` : ''}
            </MenuItem>
          );
        })}
      </Select>
    </FormControl>
  );
};

/** Global user search (pages of 10, more within 40 px of the end) minus the cluster's members; role and optional parent BU. */
export const AddClusterUserDialog = (props: {
  open: boolean;
  clusterId: string;
  businessUnits: ListRow[];
  onClose: () => void;
  onAdded: () => void;
}) => {
  const translate = useTranslate();
  const notify = useNotify();
  const dataProvider = useDataProvider<AppDataProvider>();
  const [search, setSearch] = useState('');
  const debounced = useDebouncedValue(search);
  const [selected, setSelected] = useState<PlatformUser | null>(null);
  const [role, setRole] = useState<Role>(DEFAULT_ROLE);
  const [parentBu, setParentBu] = useState('');
  const [saving, run] = useBusyAction();

  const users = useInfiniteQuery({
    queryKey: ['userSearch', props.clusterId, debounced],
    enabled: props.open,
    initialPageParam: 1,
    queryFn: ({ pageParam }) =>
      dataProvider.searchUsers({ search: debounced, page: pageParam, perpage: USER_PAGE_SIZE, exclude_cluster_id: props.clusterId }),
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
      notify('app.members.added', { type: 'success' });
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
              if (isNearScrollEnd(e.currentTarget) && users.hasNextPage && !users.isFetchingNextPage) void users.fetchNextPage();
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
                  <ListItemButton key={u.id} selected={selected?.id === u.id} onClick={() => setSelected(u)} data-testid="user-option">
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
        <Button variant="contained" disabled={!selected || saving} onClick={submit} data-testid="add-user-submit">
          {translate('ra.action.add')}
        </Button>
      </DialogActions>
    </Dialog>
  );
};

/** Role and parent BU of a cluster member; the member's current BU is never disabled. */
export const EditClusterUserDialog = (props: {
  member: ClusterUser | null;
  businessUnits: ListRow[];
  onClose: () => void;
  onSaved: () => void;
}) => {
  const translate = useTranslate();
  const notify = useNotify();
  const dataProvider = useDataProvider<AppDataProvider>();
  const { member } = props;
  const [role, setRole] = useState<Role>((member?.role as Role) ?? DEFAULT_ROLE);
  const [parentBu, setParentBu] = useState(member?.parent_bu_id ?? '');
  const [saving, run] = useBusyAction();

  if (!member) return null;
  const submit = async () => {
    await run(async () => {
      await dataProvider.updateClusterUser(member.id, { role, parent_bu_id: parentBu || null });
      notify('app.members.updated', { type: 'success' });
      props.onSaved();
    });
  };

  return (
    <Dialog open onClose={props.onClose} fullWidth maxWidth="xs" data-testid="edit-cluster-user-dialog">
      <DialogTitle>{translate('app.members.edit_title', { name: displayName(member) })}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ mt: 1 }}>
          <Typography variant="body2" color="text.secondary">
            {member.email}
          </Typography>
          <RoleSelect value={role} onChange={setRole} />
          <ParentBuSelect
            businessUnits={props.businessUnits}
            value={parentBu}
            currentBuId={member.parent_bu_id}
            onChange={setParentBu}
          />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={props.onClose}>{translate('ra.action.cancel')}</Button>
        <Button variant="contained" disabled={saving} onClick={submit} data-testid="edit-user-submit">
          {translate('ra.action.save')}
        </Button>
      </DialogActions>
    </Dialog>
  );
};
