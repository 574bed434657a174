import { useState } from 'react';
import { Title, useCanAccess, useTranslate } from 'react-admin';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Box, Chip, Link } from '@mui/material';
import type { ServiceAccount } from '../../types';
import { useAppDataProvider } from '../../dataProvider/useAppDataProvider';
import { RequireAccess } from '../../components/RequireAccess';
import { RecordsCard, type CardColumn } from '../../components/card-table';
import { ScreenMessages } from '../../components/history/ScreenMessages';
import { DateTimeText } from '../../components/DateTimeText';
import { serviceAccountScreenMessages } from './messages';
import { CreateServiceAccountDialog } from './CreateServiceAccountDialog';
import { SERVICE_ACCOUNTS_PATH } from './paths';
import { useNotice } from '../../lib/notice';

const MODULES = [serviceAccountScreenMessages];
export const SERVICE_ACCOUNTS_KEY = ['serviceAccounts'];

export const StatusChip = ({ active }: { active: boolean }) => {
  const translate = useTranslate();
  return (
    <Chip
      size="small"
      color={active ? 'success' : 'default'}
      variant="outlined"
      label={translate(active ? 'service_accounts.active' : 'service_accounts.inactive')}
    />
  );
};

const AccountsCard = () => {
  const translate = useTranslate();
  const notice = useNotice();
  const navigate = useNavigate();
  const dataProvider = useAppDataProvider();
  const queryClient = useQueryClient();
  const { canAccess: canCreate } = useCanAccess({ action: 'create', resource: 'service-accounts' });
  const [creating, setCreating] = useState(false);
  const accounts = useQuery({
    queryKey: SERVICE_ACCOUNTS_KEY,
    queryFn: () => dataProvider.listServiceAccounts({ perpage: 100 }),
  });
  const open = (a: ServiceAccount) => void navigate(`${SERVICE_ACCOUNTS_PATH}/${a.id}`);

  const columns: CardColumn<ServiceAccount>[] = [
    {
      id: 'name',
      label: translate('service_accounts.name'),
      render: (a) => (
        <Link component={RouterLink} to={`${SERVICE_ACCOUNTS_PATH}/${a.id}`} onClick={(e) => e.stopPropagation()}>
          {a.name}
        </Link>
      ),
    },
    {
      id: 'description',
      label: translate('service_accounts.description'),
      render: (a) => a.description ?? '',
      hideBelow: 'md',
    },
    { id: 'status', label: translate('service_accounts.status'), render: (a) => <StatusChip active={a.is_active} /> },
    { id: 'grants', label: translate('service_accounts.grants'), render: (a) => a.grant_count, align: 'right' },
    {
      id: 'tokens',
      label: translate('service_accounts.tokens_count'),
      render: (a) => a.active_token_count,
      align: 'right',
    },
    {
      id: 'last_used',
      label: translate('service_accounts.last_used'),
      render: (a) => (a.last_used_at ? <DateTimeText value={a.last_used_at} /> : translate('service_accounts.never')),
      hideBelow: 'md',
    },
  ];

  return (
    <RecordsCard<ServiceAccount>
      testId="service-accounts"
      title={translate('app.service_accounts.title')}
      subheader={translate('service_accounts.intro')}
      query={accounts}
      rows={accounts.data?.data}
      columns={columns}
      emptyKey="service_accounts.empty"
      captionKey="service_accounts.caption"
      emptyTestId="service-accounts-empty"
      rowTestId="service-account-row"
      add={
        canCreate && {
          labelKey: 'service_accounts.create',
          testId: 'service-account-create',
          onClick: () => setCreating(true),
        }
      }
      onRowClick={open}
    >
      {creating && (
        <CreateServiceAccountDialog
          onClose={() => setCreating(false)}
          onCreated={(account) => {
            setCreating(false);
            notice('service_accounts.created', { type: 'success', args: { name: account.name } });
            void queryClient.invalidateQueries({ queryKey: SERVICE_ACCOUNTS_KEY });
            open(account);
          }}
        />
      )}
    </RecordsCard>
  );
};

const ListTitle = () => {
  const translate = useTranslate();
  return <Title title={translate('app.service_accounts.title')} />;
};

/** `/service-accounts`: needs `user.read` (the server checks it too). */
export const ServiceAccountList = () => (
  <RequireAccess action="list" resource="service-accounts">
    <ScreenMessages modules={MODULES}>
      <ListTitle />
      <Box sx={{ mt: 2, mb: 4 }}>
        <AccountsCard />
      </Box>
    </ScreenMessages>
  </RequireAccess>
);
