import { useState } from 'react';
import { Confirm, useCanAccess, useTranslate } from 'react-admin';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  CardHeader,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControl,
  FormControlLabel,
  FormHelperText,
  IconButton,
  LinearProgress,
  Radio,
  RadioGroup,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Tooltip,
  Typography,
} from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/Delete';
import type { Cluster, Grant, PermissionKey, UserAccount } from '../../types';
import { useAppDataProvider } from '../../dataProvider/useAppDataProvider';
import { ErrorState } from '../../components/ErrorState';
import { formatDateTime } from '../../lib/audit';
import { useProblemText } from '../../lib/useProblemText';
import { useNotifyText } from '../../lib/useNotifyText';
import { ClusterAutocomplete } from './RecordAutocomplete';
import { PermissionKeySelect, PLATFORM_KEYS, usePermissionLabel } from './permissionKeys';

type Scope = 'all' | 'one';

/** One key on all clusters or on one; a platform key is on all clusters only. The API's refusal stays in the dialog. */
const AddGrantDialog = (props: { user: UserAccount; onClose: () => void; onAdded: (grant: Grant) => void }) => {
  const translate = useTranslate();
  const problemText = useProblemText();
  const dataProvider = useAppDataProvider();
  const [key, setKey] = useState<PermissionKey | ''>('');
  const [scope, setScope] = useState<Scope>('all');
  const [cluster, setCluster] = useState<Cluster | null>(null);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const platformKey = key !== '' && PLATFORM_KEYS.includes(key);
  const effectiveScope: Scope = platformKey ? 'all' : scope;
  const ready = key !== '' && (effectiveScope === 'all' || cluster !== null);

  // Never rejects (a failure is shown to the user), so the buttons fire it and forget it.
  const submit = async () => {
    if (key === '') return;
    setBusy(true);
    setError('');
    try {
      const grant = await dataProvider.addUserGrant(props.user.id, {
        permission_key: key,
        cluster_id: effectiveScope === 'one' && cluster ? cluster.id : null,
      });
      props.onAdded(grant);
    } catch (e) {
      setError(problemText(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open onClose={props.onClose} fullWidth maxWidth="sm" data-testid="add-grant-dialog">
      <DialogTitle>{translate('resources.users.grants.add_title', { name: props.user.username })}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ mt: 1 }}>
          <PermissionKeySelect
            labelId="grant-key-label"
            label={translate('resources.users.grants.permission')}
            value={key}
            onChange={setKey}
            testId="grant-key-select"
          />
          <FormControl>
            <Typography variant="caption" color="text.secondary">
              {translate('resources.users.grants.scope')}
            </Typography>
            <RadioGroup row value={effectiveScope} onChange={(e) => setScope(e.target.value === 'one' ? 'one' : 'all')}>
              <FormControlLabel
                value="all"
                control={<Radio />}
                label={translate('resources.users.grants.all_clusters')}
              />
              <FormControlLabel
                value="one"
                control={<Radio />}
                disabled={platformKey}
                label={translate('resources.users.grants.one_cluster')}
                data-testid="grant-scope-one"
              />
            </RadioGroup>
            {platformKey && <FormHelperText>{translate('resources.users.grants.platform_only')}</FormHelperText>}
          </FormControl>
          {effectiveScope === 'one' && (
            <ClusterAutocomplete
              label={translate('resources.clusters.name', { smart_count: 1 })}
              value={cluster}
              onChange={setCluster}
              testId="grant-cluster"
            />
          )}
          {error && (
            <Alert severity="error" data-testid="add-grant-error">
              {error}
            </Alert>
          )}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={props.onClose}>{translate('ra.action.cancel')}</Button>
        <Button
          variant="contained"
          disabled={!ready || busy}
          onClick={() => void submit()}
          data-testid="add-grant-submit"
        >
          {translate('ra.action.add')}
        </Button>
      </DialogActions>
    </Dialog>
  );
};

/**
 * The Access tab: the account's grants (key, cluster or all clusters, who granted it and when), with Add and Remove
 * for `grant.manage`. The server checks that the caller holds each key on its scope; its refusal is shown as it says it.
 */
export const UserGrants = ({ user, onChanged }: { user: UserAccount; onChanged: () => Promise<unknown> }) => {
  const translate = useTranslate();
  const notifyText = useNotifyText();
  const permissionLabel = usePermissionLabel();
  const problemText = useProblemText();
  const dataProvider = useAppDataProvider();
  const queryClient = useQueryClient();
  const { canAccess: canManage } = useCanAccess({ action: 'edit', resource: 'user-grants' });
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<Grant | null>(null);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState('');
  const queryKey = ['userGrants', user.id];
  const grants = useQuery({ queryKey, queryFn: () => dataProvider.getUserGrants(user.id) });
  const rows = grants.data?.data ?? [];
  const scopeOf = (g: Grant) =>
    g.cluster_id
      ? [g.cluster_code, g.cluster_name].filter(Boolean).join(' — ') || g.cluster_id
      : translate('resources.users.grants.all_clusters');

  const changed = async () => {
    await queryClient.invalidateQueries({ queryKey });
    await queryClient.invalidateQueries({ queryKey: ['auditEvents'] });
    await onChanged();
  };

  // Never rejects (a failure is shown to the user), so the buttons fire it and forget it.
  const remove = async (grant: Grant) => {
    setBusy(true);
    setFailure('');
    try {
      await dataProvider.removeUserGrant(user.id, grant.id);
      // The notification area lies outside this screen's messages: it gets the sentence itself.
      const text = translate('resources.users.grants.removed', {
        permission: permissionLabel(grant.permission_key),
        name: user.username,
      });
      notifyText(text, 'success');
      await changed();
    } catch (e) {
      setFailure(problemText(e));
    } finally {
      setBusy(false);
      setRemoving(null);
    }
  };

  return (
    <Card data-testid="user-grants">
      <CardHeader
        title={translate('resources.users.fields.grant_count')}
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
      />
      {grants.isFetching && <LinearProgress />}
      <CardContent>
        <Stack spacing={2}>
          {grants.data?.is_super_admin && (
            <Alert severity="info">{translate('resources.users.grants.super_admin_note')}</Alert>
          )}
          {failure && (
            <Alert severity="error" onClose={() => setFailure('')} data-testid="grant-error">
              {failure}
            </Alert>
          )}
          {grants.isError ? (
            <ErrorState error={grants.error} onRetry={() => void grants.refetch()} />
          ) : grants.isPending ? null : rows.length === 0 ? (
            <Typography color="text.secondary" data-testid="grants-empty">
              {translate('resources.users.grants.empty')}
            </Typography>
          ) : (
            <Box sx={{ overflowX: 'auto' }}>
              <Table size="small">
                <TableHead>
                  <TableRow>
                    <TableCell>{translate('resources.users.grants.permission')}</TableCell>
                    <TableCell>{translate('resources.clusters.name', { smart_count: 1 })}</TableCell>
                    <TableCell>{translate('resources.users.grants.granted_by')}</TableCell>
                    <TableCell>{translate('resources.users.grants.granted_at')}</TableCell>
                    <TableCell />
                  </TableRow>
                </TableHead>
                <TableBody>
                  {rows.map((g) => (
                    <TableRow key={g.id} data-testid="grant-row">
                      <TableCell>{permissionLabel(g.permission_key)}</TableCell>
                      <TableCell>{scopeOf(g)}</TableCell>
                      <TableCell>{g.granted_by_name ?? ''}</TableCell>
                      <TableCell>{formatDateTime(g.granted_at)}</TableCell>
                      <TableCell align="right">
                        {canManage && (
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
                        )}
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </Box>
          )}
        </Stack>
      </CardContent>
      {adding && (
        <AddGrantDialog
          user={user}
          onClose={() => setAdding(false)}
          onAdded={(grant) => {
            setAdding(false);
            const text = translate('resources.users.grants.added', {
              permission: permissionLabel(grant.permission_key),
              name: user.username,
            });
            notifyText(text, 'success');
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
    </Card>
  );
};
