import { useMemo, useState } from 'react';
import { useCanAccess, useDataProvider, useNotify, useTranslate } from 'react-admin';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  IconButton,
  LinearProgress,
  Link as MuiLink,
  List,
  ListItemButton,
  ListItemText,
  MenuItem,
  Stack,
  Switch,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import PersonRemoveIcon from '@mui/icons-material/PersonRemove';
import type { AppDataProvider, BusinessUnitUser, ClusterUser } from '../../dataProvider';
import { compareByNameThenEmail, displayName, matchesUserSearch } from '../../lib/displayName';
import { DEFAULT_ROLE, MEMBERSHIP_ROLES, type Role } from '../../lib/membership';
import { StatusChip } from '../../components/StatusChip';
import { MembersCard } from '../../components/MembersCard';
import { useBusyAction } from '../../lib/useBusyAction';

const RoleField = ({ value, onChange }: { value: Role; onChange: (r: Role) => void }) => {
  const translate = useTranslate();
  return (
    <TextField select size="small" fullWidth label={translate('app.members.role')} value={value} onChange={(e) => onChange(e.target.value as Role)}>
      {MEMBERSHIP_ROLES.map((r) => (
        <MenuItem key={r} value={r}>
          {translate(`app.members.roles.${r}`)}
        </MenuItem>
      ))}
    </TextField>
  );
};

/** Pick from the cluster's users not yet in the BU (filtered here by username, email and full name), with a role. */
const AddBusinessUnitUserDialog = (props: {
  open: boolean;
  businessUnitId: string;
  clusterId: string;
  memberUserIds: Set<string>;
  onClose: () => void;
  onAdded: () => void;
}) => {
  const translate = useTranslate();
  const notify = useNotify();
  const dataProvider = useDataProvider<AppDataProvider>();
  const [search, setSearch] = useState('');
  const [selected, setSelected] = useState<ClusterUser | null>(null);
  const [role, setRole] = useState<Role>(DEFAULT_ROLE);
  const [saving, run] = useBusyAction();
  const clusterUsers = useQuery({
    queryKey: ['clusterUsers', props.clusterId],
    queryFn: () => dataProvider.getClusterUsers(props.clusterId),
    enabled: props.open && !!props.clusterId,
  });
  const candidates = (clusterUsers.data ?? [])
    .filter((u) => !props.memberUserIds.has(u.user_id) && matchesUserSearch(u, search))
    .sort(compareByNameThenEmail);

  const close = () => {
    setSearch('');
    setSelected(null);
    setRole(DEFAULT_ROLE);
    props.onClose();
  };
  const submit = async () => {
    if (!selected) return;
    await run(async () => {
      await dataProvider.addBusinessUnitUser({ user_id: selected.user_id, business_unit_id: props.businessUnitId, role });
      notify('app.members.added', { type: 'success' });
      setSelected(null);
      setSearch('');
      setRole(DEFAULT_ROLE);
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
                  <ListItemButton key={u.user_id} selected={selected?.user_id === u.user_id} onClick={() => setSelected(u)} data-testid="bu-user-option">
                    <ListItemText primary={displayName(u)} secondary={`${u.username} · ${u.email}`} />
                  </ListItemButton>
                ))}
              </List>
            )}
          </Box>
          <RoleField value={role} onChange={setRole} />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={close}>{translate('ra.action.cancel')}</Button>
        <Button variant="contained" disabled={!selected || saving} onClick={submit} data-testid="add-bu-user-submit">
          {translate('ra.action.add')}
        </Button>
      </DialogActions>
    </Dialog>
  );
};

const EditBusinessUnitUserDialog = (props: { member: BusinessUnitUser; onClose: () => void; onSaved: (m: BusinessUnitUser) => void }) => {
  const translate = useTranslate();
  const notify = useNotify();
  const dataProvider = useDataProvider<AppDataProvider>();
  const [role, setRole] = useState<Role>(props.member.role as Role);
  const [active, setActive] = useState(props.member.is_active);
  const [saving, run] = useBusyAction();
  const submit = async () => {
    await run(async () => {
      const updated = await dataProvider.updateBusinessUnitUser(props.member.id, { role, is_active: active });
      notify('app.members.updated', { type: 'success' });
      props.onSaved(updated ?? { ...props.member, role, is_active: active });
    });
  };
  return (
    <Dialog open onClose={props.onClose} fullWidth maxWidth="xs" data-testid="edit-bu-user-dialog">
      <DialogTitle>{translate('app.members.edit_title', { name: displayName(props.member) })}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ mt: 1 }}>
          <RoleField value={role} onChange={setRole} />
          <FormControlLabel control={<Switch checked={active} onChange={(e) => setActive(e.target.checked)} />} label={translate('app.members.membership_active')} />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={props.onClose}>{translate('ra.action.cancel')}</Button>
        <Button variant="contained" disabled={saving} onClick={submit}>
          {translate('ra.action.save')}
        </Button>
      </DialogActions>
    </Dialog>
  );
};

/** Members of the BU: add from the cluster's users, edit role and status (updated locally), remove after confirmation. */
export const BusinessUnitUsersCard = ({ businessUnitId, clusterId }: { businessUnitId: string; clusterId: string }) => {
  const translate = useTranslate();
  const notify = useNotify();
  const dataProvider = useDataProvider<AppDataProvider>();
  const queryClient = useQueryClient();
  const queryKey = ['businessUnitUsers', businessUnitId];
  const { canAccess: canManage } = useCanAccess({ action: 'edit', resource: 'business-units', record: { id: businessUnitId, cluster_id: clusterId } });
  const members = useQuery({ queryKey, queryFn: () => dataProvider.getBusinessUnitUsers(businessUnitId) });
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<BusinessUnitUser | null>(null);
  const [removing, setRemoving] = useState<BusinessUnitUser | null>(null);
  const [busy, run] = useBusyAction();
  const rows = [...(members.data ?? [])].sort(compareByNameThenEmail);
  const memberUserIds = useMemo(() => new Set((members.data ?? []).map((m) => m.user_id)), [members.data]);

  const remove = async () => {
    if (!removing) return;
    await run(async () => {
      await dataProvider.removeBusinessUnitUser(removing.id);
      queryClient.setQueryData<BusinessUnitUser[]>(queryKey, (old) => (old ?? []).filter((m) => m.id !== removing.id));
      notify('app.members.removed', { type: 'success' });
    }, () => setRemoving(null));
  };

  return (
    <MembersCard
      testId="bu-users-card"
      title={translate('resources.business-units.cards.users')}
      canManage={!!canManage}
      addTestId="bu-user-add"
      onAdd={() => setAdding(true)}
      members={members}
      isEmpty={rows.length === 0}
      removing={removing ? displayName(removing) : null}
      removeBusy={busy}
      onConfirmRemove={remove}
      onCancelRemove={() => setRemoving(null)}
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
              void members.refetch();
            }}
          />
          {editing && (
            <EditBusinessUnitUserDialog
              member={editing}
              onClose={() => setEditing(null)}
              onSaved={(updated) => {
                queryClient.setQueryData<BusinessUnitUser[]>(queryKey, (old) => (old ?? []).map((m) => (m.id === updated.id ? { ...m, ...updated } : m)));
                setEditing(null);
              }}
            />
          )}
        </>
      }
    >
      <Table size="small">
        <TableHead>
          <TableRow>
            <TableCell>{translate('app.members.name')}</TableCell>
            <TableCell>{translate('app.members.email')}</TableCell>
            <TableCell>{translate('app.members.role')}</TableCell>
            <TableCell>{translate('app.members.status')}</TableCell>
            <TableCell align="right">{translate('app.members.remove')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((m) => (
            <TableRow key={m.id} data-testid="bu-user-row">
              <TableCell>
                {canManage ? (
                  <MuiLink component="button" type="button" underline="hover" onClick={() => setEditing(m)}>
                    {displayName(m)}
                  </MuiLink>
                ) : (
                  displayName(m)
                )}
              </TableCell>
              <TableCell>{m.email}</TableCell>
              <TableCell>{translate(`app.members.roles.${m.role}`)}</TableCell>
              <TableCell>
                <StatusChip active={m.is_active} />
              </TableCell>
              <TableCell align="right">
                {canManage && (
                  <Tooltip title={translate('app.members.remove')}>
                    <IconButton size="small" onClick={() => setRemoving(m)} aria-label={translate('app.members.remove')} data-testid="bu-user-remove">
                      <PersonRemoveIcon fontSize="small" />
                    </IconButton>
                  </Tooltip>
                )}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </MembersCard>
  );
};
