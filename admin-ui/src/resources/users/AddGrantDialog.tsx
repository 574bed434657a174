import { useState } from 'react';
import { useTranslate } from 'react-admin';
import { FormControl, FormControlLabel, FormHelperText, Radio, RadioGroup, Typography } from '@mui/material';
import type { Grant, PermissionKey, UserAccount } from '../../types';
import { useAppDataProvider } from '../../dataProvider/useAppDataProvider';
import { FormDialog, useDialogCall } from '../../components/FormDialog';
import { ClusterAutocomplete, type ClusterName } from './RecordAutocomplete';
import { PermissionKeySelect, PLATFORM_KEYS } from './permissionKeys';

type Scope = 'all' | 'one';

/** One key on all clusters or on one; a platform key is on all clusters only. The API's refusal stays in the dialog. */
export const AddGrantDialog = (props: {
  user: Pick<UserAccount, 'id' | 'username'>;
  onClose: () => void;
  onAdded: (grant: Grant) => void;
}) => {
  const translate = useTranslate();
  const dataProvider = useAppDataProvider();
  const [key, setKey] = useState<PermissionKey | ''>('');
  const [scope, setScope] = useState<Scope>('all');
  const [cluster, setCluster] = useState<ClusterName | null>(null);
  const platformKey = key !== '' && PLATFORM_KEYS.includes(key);
  const effectiveScope: Scope = platformKey ? 'all' : scope;
  const ready = key !== '' && (effectiveScope === 'all' || cluster !== null);
  const call = useDialogCall(
    // Add stays disabled until a key is chosen.
    () =>
      key === ''
        ? Promise.reject(new Error('no permission chosen'))
        : dataProvider.addUserGrant(props.user.id, {
            permission_key: key,
            cluster_id: effectiveScope === 'one' && cluster ? cluster.id : null,
          }),
    props.onAdded,
  );

  return (
    <FormDialog
      title={translate('resources.users.grants.add_title', { name: props.user.username })}
      testId="add-grant-dialog"
      submitTestId="add-grant-submit"
      errorTestId="add-grant-error"
      submitLabel="ra.action.add"
      ready={ready}
      call={call}
      onClose={props.onClose}
    >
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
          <FormControlLabel value="all" control={<Radio />} label={translate('resources.users.grants.all_clusters')} />
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
    </FormDialog>
  );
};
