import { useState } from 'react';
import { useCanAccess, useTranslate } from 'react-admin';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Box, FormControlLabel, FormHelperText, Stack, Switch } from '@mui/material';
import type { SsoIdentity, UserAccount } from '../../types';
import { useAppDataProvider } from '../../dataProvider/useAppDataProvider';
import { CardTable, TableCard, type CardColumn } from '../../components/card-table';
import { ErrorState } from '../../components/ErrorState';
import { DateTimeText } from '../../components/DateTimeText';
import { useNotice, useReason } from '../../lib/notice';
import { useSsoProviders } from '../../sso/useSsoProviders';

/**
 * The provider accounts linked to this account, and whether its password still signs it in. Only a linked account can
 * be made SSO-only (the server refuses otherwise, 409): the switch says so before anyone tries.
 */
export const UserSsoCard = ({ user }: { user: UserAccount }) => {
  const translate = useTranslate();
  const notice = useNotice();
  const problemText = useReason();
  const dataProvider = useAppDataProvider();
  const queryClient = useQueryClient();
  const { canAccess: canManage } = useCanAccess({ action: 'edit', resource: 'users', record: { id: user.id } });
  const queryKey = ['userSso', user.id];
  const sso = useQuery({ queryKey, queryFn: () => dataProvider.getUserSso(user.id) });
  // Display names of the providers; a provider no longer configured is named by its id.
  const providers = useSsoProviders({ retry: false });
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState('');
  const identities = sso.data?.identities ?? [];
  const linked = identities.length > 0;
  const ssoOnly = sso.data?.sso_only ?? false;
  const providerName = (id: string) => providers.data?.find((p) => p.id === id)?.display_name ?? id;

  const setSsoOnly = async (value: boolean) => {
    setBusy(true);
    setFailure('');
    try {
      const updated = await dataProvider.setUserSsoOnly(user.id, value);
      queryClient.setQueryData(queryKey, updated);
      await queryClient.invalidateQueries({ queryKey: ['auditEvents'] });
      notice(value ? 'resources.users.sso.sso_only_on' : 'resources.users.sso.sso_only_off', {
        type: 'success',
        args: { name: user.username },
      });
    } catch (e) {
      setFailure(problemText(e));
    } finally {
      setBusy(false);
    }
  };

  const columns: CardColumn<SsoIdentity>[] = [
    { id: 'provider', label: translate('resources.users.sso.provider'), render: (i) => providerName(i.provider) },
    { id: 'subject', label: translate('resources.users.sso.subject'), render: (i) => i.subject, hideBelow: 'md' },
    { id: 'email', label: translate('resources.users.sso.email'), render: (i) => i.email ?? '' },
    {
      id: 'last_sign_in_at',
      label: translate('resources.users.sso.last_sign_in_at'),
      render: (i) => <DateTimeText value={i.last_sign_in_at} />,
    },
  ];

  return (
    <TableCard testId="user-sso" title={translate('resources.users.sso.title')} refreshing={sso.isFetching}>
      {sso.isError ? (
        <ErrorState error={sso.error} onRetry={() => void sso.refetch()} />
      ) : (
        <Stack spacing={2}>
          <CardTable<SsoIdentity>
            rows={sso.data?.identities}
            columns={columns}
            rowKey={(i) => `${i.provider}/${i.subject}`}
            loading={sso.isPending}
            empty={translate('resources.users.sso.not_linked')}
            emptyTestId="sso-not-linked"
            rowTestId="sso-identity"
          />
          <Box>
            <FormControlLabel
              control={
                <Switch
                  checked={ssoOnly}
                  // Turning it off stays possible for an account that is SSO-only without a link (its password works again).
                  disabled={!canManage || busy || (!linked && !ssoOnly)}
                  onChange={(e) => void setSsoOnly(e.target.checked)}
                  inputProps={{ 'aria-describedby': 'sso-only-help' }}
                  data-testid="sso-only-switch"
                />
              }
              label={translate('resources.users.sso.sso_only')}
            />
            <FormHelperText id="sso-only-help" data-testid="sso-only-help">
              {translate(
                linked || ssoOnly ? 'resources.users.sso.sso_only_help' : 'resources.users.sso.sso_only_unlinked',
              )}
            </FormHelperText>
          </Box>
          {failure && (
            <Alert severity="error" onClose={() => setFailure('')} data-testid="sso-error">
              {failure}
            </Alert>
          )}
        </Stack>
      )}
    </TableCard>
  );
};
