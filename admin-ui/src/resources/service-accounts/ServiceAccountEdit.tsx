import { useEffect, useState } from 'react';
import { Title, useCanAccess, useTranslate } from 'react-admin';
import { Link as RouterLink, useParams } from 'react-router-dom';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  Box,
  Button,
  Card,
  CardActions,
  CardContent,
  CardHeader,
  FormControlLabel,
  Link,
  Stack,
  Switch,
  TextField,
} from '@mui/material';
import type { ServiceAccount } from '../../types';
import { useAppDataProvider } from '../../dataProvider/useAppDataProvider';
import { RequireAccess } from '../../components/RequireAccess';
import { ErrorState } from '../../components/ErrorState';
import { ScreenMessages } from '../../components/history/ScreenMessages';
import { PageLoading } from '../../layout/PageLoading';
import { userScreenMessages } from '../users/messages';
import { UserGrants } from '../users/UserGrants';
import { serviceAccountScreenMessages } from './messages';
import { SERVICE_ACCOUNTS_PATH } from './paths';
import { SERVICE_ACCOUNTS_KEY, StatusChip } from './ServiceAccountList';
import { TokensCard } from './TokensCard';
import { useNotice, useReason } from '../../lib/notice';

// The grants card is an account's Access tab: its words come with the users' messages.
const MODULES = [serviceAccountScreenMessages, userScreenMessages];

/** Name, description and whether it is active; saved as one record, refused by the server in its own words. */
const DetailsCard = ({ account, onSaved }: { account: ServiceAccount; onSaved: () => Promise<unknown> }) => {
  const translate = useTranslate();
  const notice = useNotice();
  const problemText = useReason();
  const dataProvider = useAppDataProvider();
  const { canAccess: canEdit } = useCanAccess({ action: 'edit', resource: 'service-accounts' });
  const [name, setName] = useState(account.name);
  const [description, setDescription] = useState(account.description ?? '');
  const [active, setActive] = useState(account.is_active);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    setName(account.name);
    setDescription(account.description ?? '');
    setActive(account.is_active);
  }, [account]);

  const save = async () => {
    setBusy(true);
    setError('');
    try {
      const saved = await dataProvider.updateServiceAccount(account.id, {
        name: name.trim(),
        description: description.trim() || null,
        is_active: active,
      });
      notice('service_accounts.saved', { type: 'success', args: { name: saved.name } });
      await onSaved();
    } catch (e) {
      setError(problemText(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card variant="outlined" data-testid="service-account-details">
      <CardHeader title={translate('service_accounts.details')} action={<StatusChip active={account.is_active} />} />
      <CardContent>
        <Stack spacing={2}>
          {error && (
            <Alert severity="error" onClose={() => setError('')} data-testid="service-account-error">
              {error}
            </Alert>
          )}
          <TextField
            label={translate('service_accounts.name')}
            helperText={translate('service_accounts.name_help')}
            value={name}
            onChange={(e) => setName(e.target.value)}
            disabled={!canEdit}
            inputProps={{ 'data-testid': 'service-account-name', maxLength: 64 }}
          />
          <TextField
            label={translate('service_accounts.description')}
            value={description}
            onChange={(e) => setDescription(e.target.value)}
            disabled={!canEdit}
            multiline
            minRows={2}
            inputProps={{ 'data-testid': 'service-account-description', maxLength: 500 }}
          />
          <FormControlLabel
            control={
              <Switch
                checked={active}
                onChange={(e) => setActive(e.target.checked)}
                disabled={!canEdit}
                inputProps={{ 'aria-describedby': 'service-account-active-help' }}
              />
            }
            label={translate('service_accounts.active')}
          />
          <Box id="service-account-active-help" sx={{ color: 'text.secondary', fontSize: '0.875rem' }}>
            {translate('service_accounts.active_help')}
          </Box>
        </Stack>
      </CardContent>
      {canEdit && (
        <CardActions>
          <Button variant="contained" disabled={busy} onClick={() => void save()} data-testid="service-account-update">
            {translate('service_accounts.save')}
          </Button>
        </CardActions>
      )}
    </Card>
  );
};

const AccountScreen = ({ id }: { id: string }) => {
  const translate = useTranslate();
  const dataProvider = useAppDataProvider();
  const queryClient = useQueryClient();
  const queryKey = ['serviceAccount', id];
  const account = useQuery({ queryKey, queryFn: () => dataProvider.getServiceAccount(id), retry: false });
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey }),
      queryClient.invalidateQueries({ queryKey: SERVICE_ACCOUNTS_KEY }),
    ]);

  if (account.isPending) return <PageLoading />;
  if (account.isError) {
    const status = (account.error as { status?: number }).status;
    if (status === 404 || status === 400)
      return <Alert severity="warning">{translate('service_accounts.not_found')}</Alert>;
    return <ErrorState error={account.error} onRetry={() => void account.refetch()} />;
  }
  const record = account.data;
  return (
    <Stack spacing={2}>
      <Title title={`${translate('app.service_accounts.title')}: ${record.name}`} />
      <DetailsCard account={record} onSaved={refresh} />
      <UserGrants user={{ id: record.id, username: record.name }} onChanged={refresh} />
      <TokensCard account={record} onChanged={refresh} />
    </Stack>
  );
};

const BackLink = () => {
  const translate = useTranslate();
  return (
    <Link component={RouterLink} to={SERVICE_ACCOUNTS_PATH} sx={{ display: 'inline-block', mb: 2 }}>
      {translate('service_accounts.back')}
    </Link>
  );
};

/** `/service-accounts/:id`: the account, its grants and its tokens; needs `user.read` (the server checks it too). */
export const ServiceAccountEdit = () => {
  const { id = '' } = useParams();
  return (
    <RequireAccess action="list" resource="service-accounts">
      <ScreenMessages modules={MODULES}>
        <Box sx={{ mt: 2, mb: 4 }}>
          <BackLink />
          <AccountScreen id={id} />
        </Box>
      </ScreenMessages>
    </RequireAccess>
  );
};
