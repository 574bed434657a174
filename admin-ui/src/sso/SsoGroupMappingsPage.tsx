import { useState } from 'react';
import { Title, useTranslate } from 'react-admin';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Box, Chip, Tooltip } from '@mui/material';
import WarningAmberIcon from '@mui/icons-material/WarningAmber';
import type { SsoGroupMapping } from '../types';
import { useAppDataProvider } from '../dataProvider/useAppDataProvider';
import { RequireAccess } from '../components/RequireAccess';
import { ErrorState } from '../components/ErrorState';
import { RecordsCard, useConfirmedRowAction, type CardColumn } from '../components/card-table';
import { ScreenMessages } from '../components/history/ScreenMessages';
import { DateTimeText } from '../components/DateTimeText';
import { userScreenMessages } from '../resources/users/messages';
import { usePermissionLabel } from '../resources/users/permissionKeys';
import { ssoScreenMessages } from './messages';
import { AddMappingDialog } from './AddMappingDialog';
import { useNotice } from '../lib/notice';
import { useSsoProviders } from './useSsoProviders';

// The permission keys are named as on an account's Access tab.
const MODULES = [ssoScreenMessages, userScreenMessages];
const MAPPINGS = ['ssoGroupMappings'];

/**
 * The group mappings of every provider, with Add and Delete. Changing one never touches existing accounts: the grants
 * are given once, when a provider creates an account at its first sign-in.
 */
const MappingsCard = () => {
  const translate = useTranslate();
  const notice = useNotice();
  const permissionLabel = usePermissionLabel();
  const dataProvider = useAppDataProvider();
  const queryClient = useQueryClient();
  const mappings = useQuery({ queryKey: MAPPINGS, queryFn: () => dataProvider.listSsoGroupMappings() });
  const providers = useSsoProviders();
  const [adding, setAdding] = useState(false);
  const providerList = providers.data ?? [];

  // A mapping may outlive its provider's configuration: it is still listed, and can be deleted.
  const providerName = (id: string) =>
    providerList.find((p) => p.id === id)?.display_name ?? translate('sso.mappings.not_configured', { id });
  const scopeOf = (m: SsoGroupMapping) =>
    m.cluster_id ? (m.cluster_code ?? m.cluster_id) : translate('sso.mappings.all_clusters');
  const said = (key: string, args: Record<string, unknown>) => notice(key, { type: 'success', args });

  const changed = async () => {
    await queryClient.invalidateQueries({ queryKey: MAPPINGS });
    await queryClient.invalidateQueries({ queryKey: ['auditEvents'] });
  };

  const removal = useConfirmedRowAction<SsoGroupMapping>(
    (mapping) => dataProvider.deleteSsoGroupMapping(mapping.id),
    (mapping) => {
      said('sso.mappings.removed', { group: mapping.group });
      return changed();
    },
  );

  const columns: CardColumn<SsoGroupMapping>[] = [
    { id: 'provider', label: translate('sso.mappings.provider'), render: (m) => providerName(m.provider) },
    { id: 'group', label: translate('sso.mappings.group'), render: (m) => m.group },
    {
      id: 'permission',
      label: translate('sso.mappings.permission'),
      render: (m) => (
        <>
          {permissionLabel(m.permission_key)}
          {!m.grants_fully && <NotGrantingChip />}
        </>
      ),
    },
    { id: 'cluster', label: translate('sso.mappings.cluster'), render: scopeOf },
    {
      id: 'created_at',
      label: translate('sso.mappings.created_at'),
      render: (m) => <DateTimeText value={m.created_at} />,
      hideBelow: 'md',
    },
  ];

  return (
    <RecordsCard<SsoGroupMapping>
      testId="sso-mappings"
      title={translate('app.sso.title')}
      subheader={translate('sso.mappings.intro')}
      query={mappings}
      refreshing={(mappings.isFetching && !mappings.isPending) || providers.isFetching}
      rows={mappings.data}
      columns={columns}
      emptyKey="sso.mappings.empty"
      captionKey="sso.mappings.caption"
      emptyTestId="mappings-empty"
      rowTestId="mapping-row"
      add={{
        labelKey: 'sso.mappings.add',
        testId: 'mapping-add',
        onClick: () => setAdding(true),
        disabled: providerList.length === 0,
      }}
      removal={{
        action: removal,
        labelKey: 'sso.mappings.remove',
        testId: 'mapping-remove',
        failureTestId: 'mapping-error',
        title: 'sso.mappings.remove_title',
        content: 'sso.mappings.remove_content',
        args: (m) => ({ group: m.group, permission: permissionLabel(m.permission_key), scope: scopeOf(m) }),
      }}
      alerts={
        <>
          {providers.isSuccess && providerList.length === 0 && (
            <Alert severity="info" data-testid="sso-no-providers">
              {translate('sso.mappings.no_providers')}
            </Alert>
          )}
          {providers.isError && <ErrorState error={providers.error} onRetry={() => void providers.refetch()} />}
        </>
      }
    >
      {adding && (
        <AddMappingDialog
          providers={providerList}
          onClose={() => setAdding(false)}
          onAdded={(mapping) => {
            setAdding(false);
            said('sso.mappings.added', { group: mapping.group, permission: permissionLabel(mapping.permission_key) });
            void changed();
          }}
        />
      )}
    </RecordsCard>
  );
};

/**
 * On a mapping that no longer gives its grant: its author has lost the key there (or was deactivated), and a mapping
 * never gives more than its author could grant by hand.
 */
const NotGrantingChip = () => {
  const translate = useTranslate();
  return (
    <Tooltip title={translate('sso.mappings.not_granting_help')}>
      <Chip
        size="small"
        color="warning"
        variant="outlined"
        icon={<WarningAmberIcon />}
        label={translate('sso.mappings.not_granting')}
        sx={{ ml: 1 }}
        data-testid="mapping-not-granting"
      />
    </Tooltip>
  );
};

/** `/sso/group-mappings`: needs `grant.manage` (the server checks it too). */
export const SsoGroupMappings = () => (
  <RequireAccess action="list" resource="sso-group-mappings">
    <ScreenMessages modules={MODULES}>
      <SsoTitle />
      <Box sx={{ mt: 2, mb: 4 }}>
        <MappingsCard />
      </Box>
    </ScreenMessages>
  </RequireAccess>
);

const SsoTitle = () => {
  const translate = useTranslate();
  return <Title title={translate('app.sso.title')} />;
};
