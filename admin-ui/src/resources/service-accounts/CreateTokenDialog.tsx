import { useState } from 'react';
import { useTranslate } from 'react-admin';
import { useQuery } from '@tanstack/react-query';
import {
  Alert,
  Checkbox,
  FormControl,
  FormControlLabel,
  FormLabel,
  InputLabel,
  MenuItem,
  Radio,
  RadioGroup,
  Select,
  TextField,
} from '@mui/material';
import type { ApiTokenCreated, Grant, ServiceAccount } from '../../types';
import { useAppDataProvider } from '../../dataProvider/useAppDataProvider';
import { ErrorState } from '../../components/ErrorState';
import { usePermissionLabel } from '../users/permissionKeys';
import { FormDialog, useDialogCall } from '../../components/FormDialog';

/** The expiries offered; the server takes any up to a year. */
const EXPIRY_DAYS = [30, 90, 180, 365] as const;
const DAY_MS = 86_400_000;

/**
 * A token's name, its expiry and, optionally, the account's keys it is narrowed to (the account's grants, as listed on
 * its Grants card). The server checks each key against the account and the caller; its refusal stays in the dialog.
 */
export const CreateTokenDialog = (props: {
  account: ServiceAccount;
  onClose: () => void;
  onCreated: (token: ApiTokenCreated) => void;
}) => {
  const translate = useTranslate();
  const permissionLabel = usePermissionLabel();
  const dataProvider = useAppDataProvider();
  const grants = useQuery({
    queryKey: ['userGrants', props.account.id],
    queryFn: () => dataProvider.getUserGrants(props.account.id),
  });
  const [name, setName] = useState('');
  const [days, setDays] = useState<number>(90);
  const [narrowed, setNarrowed] = useState(false);
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  const held = grants.data?.data ?? [];
  const scopeOf = (g: Grant) =>
    g.cluster_id ? (g.cluster_code ?? g.cluster_id) : translate('service_accounts.tokens.all_clusters');
  const toggle = (id: string) =>
    setChosen((was) => {
      const next = new Set(was);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const ready = name.trim() !== '' && (!narrowed || chosen.size > 0);

  const call = useDialogCall(() => {
    const scopes = narrowed
      ? held
          .filter((g) => chosen.has(g.id))
          .map((g) => ({ permission_key: g.permission_key, cluster_id: g.cluster_id }))
      : null;
    const expires_at = new Date(Date.now() + days * DAY_MS - 60_000).toISOString();
    return dataProvider.createApiToken(props.account.id, { name: name.trim(), expires_at, scopes });
  }, props.onCreated);

  return (
    <FormDialog
      title={translate('service_accounts.tokens.add_title', { name: props.account.name })}
      titleId="token-create-title"
      onClose={props.onClose}
      call={call}
      ready={ready}
      submitLabel="service_accounts.tokens.add"
      cancelLabel="service_accounts.cancel"
      submitTestId="token-save"
      errorTestId="token-create-error"
    >
      <TextField
        label={translate('service_accounts.tokens.name')}
        value={name}
        onChange={(e) => setName(e.target.value)}
        required
        autoFocus
        inputProps={{ 'data-testid': 'token-name', maxLength: 100 }}
      />
      <FormControl>
        <InputLabel id="token-expiry-label">{translate('service_accounts.tokens.expires')}</InputLabel>
        <Select
          labelId="token-expiry-label"
          label={translate('service_accounts.tokens.expires')}
          value={days}
          onChange={(e) => setDays(Number(e.target.value))}
          data-testid="token-expiry"
        >
          {EXPIRY_DAYS.map((d) => (
            <MenuItem key={d} value={d}>
              {translate('service_accounts.tokens.days', { smart_count: d })}
            </MenuItem>
          ))}
        </Select>
      </FormControl>
      <FormControl>
        <FormLabel id="token-scopes-label">{translate('service_accounts.tokens.scopes')}</FormLabel>
        <RadioGroup
          aria-labelledby="token-scopes-label"
          value={narrowed ? 'some' : 'all'}
          onChange={(e) => setNarrowed(e.target.value === 'some')}
        >
          <FormControlLabel value="all" control={<Radio />} label={translate('service_accounts.tokens.all_keys')} />
          <FormControlLabel
            value="some"
            control={<Radio />}
            disabled={held.length === 0}
            label={translate('service_accounts.tokens.some_keys')}
          />
        </RadioGroup>
      </FormControl>
      {grants.isError && <ErrorState error={grants.error} onRetry={() => void grants.refetch()} />}
      {grants.isSuccess && held.length === 0 && (
        <Alert severity="info">{translate('service_accounts.tokens.no_grants')}</Alert>
      )}
      {narrowed &&
        held.map((g) => (
          <FormControlLabel
            key={g.id}
            control={<Checkbox checked={chosen.has(g.id)} onChange={() => toggle(g.id)} />}
            label={`${permissionLabel(g.permission_key)} — ${scopeOf(g)}`}
            data-testid="token-scope"
          />
        ))}
    </FormDialog>
  );
};
