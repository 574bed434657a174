import { useState } from 'react';
import { useTranslate } from 'react-admin';
import {
  Alert,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControl,
  FormControlLabel,
  FormHelperText,
  Radio,
  RadioGroup,
  Stack,
  Typography,
} from '@mui/material';
import type { Cluster, Grant, PermissionKey, UserAccount } from '../../types';
import { useAppDataProvider } from '../../dataProvider/useAppDataProvider';
import { useReason } from '../../lib/notice';
import { ClusterAutocomplete } from './RecordAutocomplete';
import { PermissionKeySelect, PLATFORM_KEYS } from './permissionKeys';

type Scope = 'all' | 'one';

/** One key on all clusters or on one; a platform key is on all clusters only. The API's refusal stays in the dialog. */
export const AddGrantDialog = (props: { user: UserAccount; onClose: () => void; onAdded: (grant: Grant) => void }) => {
  const translate = useTranslate();
  const problemText = useReason();
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
