import { useState } from 'react';
import { useTranslate } from 'react-admin';
import { FormControl, FormHelperText, InputLabel, MenuItem, Select, TextField } from '@mui/material';
import type { PermissionKey, SsoGroupMapping, SsoProvider } from '../types';
import { useAppDataProvider } from '../dataProvider/useAppDataProvider';
import { PermissionKeySelect, PLATFORM_KEYS } from '../resources/users/permissionKeys';
import { ClusterAutocomplete, type ClusterName } from '../resources/users/RecordAutocomplete';
import { FormDialog, useDialogCall } from '../components/FormDialog';

/**
 * A group of one provider mapped to one key, on one cluster or on all; a platform key takes no cluster. The server's
 * refusal (unknown provider, unknown cluster, the same mapping again) stays in the dialog in its own words.
 */
export const AddMappingDialog = (props: {
  providers: readonly SsoProvider[];
  onClose: () => void;
  onAdded: (mapping: SsoGroupMapping) => void;
}) => {
  const translate = useTranslate();
  const dataProvider = useAppDataProvider();
  const [provider, setProvider] = useState(props.providers.length === 1 ? props.providers[0]!.id : '');
  const [group, setGroup] = useState('');
  const [key, setKey] = useState<PermissionKey | ''>('');
  const [cluster, setCluster] = useState<ClusterName | null>(null);
  const platformKey = key !== '' && PLATFORM_KEYS.includes(key);
  const ready = provider !== '' && group.trim() !== '' && key !== '';
  const call = useDialogCall(
    // Add stays disabled until a key is chosen.
    () =>
      key === ''
        ? Promise.reject(new Error('no permission chosen'))
        : dataProvider.createSsoGroupMapping({
            provider,
            group: group.trim(),
            permission_key: key,
            cluster_id: !platformKey && cluster ? cluster.id : null,
          }),
    props.onAdded,
  );

  return (
    <FormDialog
      title={translate('sso.mappings.add_title')}
      testId="add-mapping-dialog"
      submitTestId="add-mapping-submit"
      errorTestId="add-mapping-error"
      submitLabel="ra.action.add"
      ready={ready}
      call={call}
      onClose={props.onClose}
    >
      <FormControl fullWidth size="small">
        <InputLabel id="mapping-provider-label">{translate('sso.mappings.provider')}</InputLabel>
        <Select
          labelId="mapping-provider-label"
          label={translate('sso.mappings.provider')}
          value={provider}
          onChange={(e) => setProvider(e.target.value)}
          data-testid="mapping-provider"
        >
          {props.providers.map((p) => (
            <MenuItem key={p.id} value={p.id}>
              {p.display_name}
            </MenuItem>
          ))}
        </Select>
      </FormControl>
      <TextField
        size="small"
        label={translate('sso.mappings.group')}
        helperText={translate('sso.mappings.group_help')}
        value={group}
        onChange={(e) => setGroup(e.target.value)}
        inputProps={{ maxLength: 255, 'data-testid': 'mapping-group' }}
      />
      <PermissionKeySelect
        labelId="mapping-key-label"
        label={translate('sso.mappings.permission')}
        value={key}
        onChange={setKey}
        testId="mapping-key"
        helperText={platformKey ? translate('sso.mappings.platform_only') : undefined}
      />
      {!platformKey && (
        <FormControl>
          <ClusterAutocomplete
            label={translate('sso.mappings.cluster')}
            value={cluster}
            onChange={setCluster}
            testId="mapping-cluster"
          />
          <FormHelperText>{translate('sso.mappings.all_clusters_help')}</FormHelperText>
        </FormControl>
      )}
    </FormDialog>
  );
};
