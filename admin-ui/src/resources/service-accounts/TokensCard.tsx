import { useState } from 'react';
import { Confirm, useCanAccess, useTranslate } from 'react-admin';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Chip, IconButton, Stack, Tooltip } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/Delete';
import type { ApiToken, ApiTokenCreated, ServiceAccount } from '../../types';
import { useAppDataProvider } from '../../dataProvider/useAppDataProvider';
import { CardTable, TableCard, type CardColumn } from '../../components/card-table';
import { DateTimeText } from '../../components/DateTimeText';
import { CreateTokenDialog } from './CreateTokenDialog';
import { TokenCreatedDialog } from './TokenCreatedDialog';
import { useNotice, useReason } from '../../lib/notice';

const STATUS_COLOR = { active: 'success', expired: 'default', revoked: 'error' } as const;

/** The account's tokens (never a secret), with Create, the copy-once dialog, and Revoke, for `user.manage`. */
export const TokensCard = ({ account, onChanged }: { account: ServiceAccount; onChanged: () => Promise<unknown> }) => {
  const translate = useTranslate();
  const notice = useNotice();
  const problemText = useReason();
  const dataProvider = useAppDataProvider();
  const queryClient = useQueryClient();
  const { canAccess: canManage } = useCanAccess({ action: 'edit', resource: 'service-accounts' });
  const queryKey = ['apiTokens', account.id];
  const tokens = useQuery({ queryKey, queryFn: () => dataProvider.listApiTokens(account.id) });
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<ApiTokenCreated | null>(null);
  const [revoking, setRevoking] = useState<ApiToken | null>(null);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState('');

  const changed = async () => {
    await Promise.all([queryKey, ['auditEvents']].map((key) => queryClient.invalidateQueries({ queryKey: key })));
    await onChanged();
  };

  const revoke = async (token: ApiToken) => {
    setBusy(true);
    setFailure('');
    try {
      await dataProvider.revokeApiToken(account.id, token.id);
      notice('service_accounts.tokens.revoked_notice', { type: 'success', args: { name: token.name } });
      await changed();
    } catch (e) {
      setFailure(problemText(e));
    } finally {
      setBusy(false);
      setRevoking(null);
    }
  };

  const columns: CardColumn<ApiToken>[] = [
    { id: 'name', label: translate('service_accounts.tokens.name'), render: (x) => x.name },
    {
      id: 'prefix',
      label: translate('service_accounts.tokens.prefix'),
      render: (x) => <code>{x.prefix}…</code>,
      hideBelow: 'sm',
    },
    {
      id: 'status',
      label: translate('service_accounts.tokens.status'),
      render: (x) => (
        <Chip
          size="small"
          variant="outlined"
          color={STATUS_COLOR[x.status]}
          label={translate(`service_accounts.tokens.${x.status}`)}
          data-testid="token-status"
        />
      ),
    },
    {
      id: 'created_at',
      label: translate('service_accounts.tokens.created_at'),
      render: (x) => <DateTimeText value={x.created_at} />,
      hideBelow: 'md',
    },
    {
      id: 'expires_at',
      label: translate('service_accounts.tokens.expires_at'),
      render: (x) => <DateTimeText value={x.expires_at} />,
      hideBelow: 'md',
    },
    {
      id: 'last_used',
      label: translate('service_accounts.tokens.last_used'),
      render: (x) =>
        x.last_used_at ? (
          <>
            <DateTimeText value={x.last_used_at} />
            {x.last_used_ip && ` · ${x.last_used_ip}`}
          </>
        ) : (
          translate('service_accounts.never')
        ),
    },
  ];

  return (
    <TableCard
      testId="api-tokens"
      title={translate('service_accounts.tokens.title')}
      subheader={translate('service_accounts.tokens.intro')}
      refreshing={tokens.isFetching && !tokens.isPending}
      action={
        canManage && (
          <Button
            variant="contained"
            size="small"
            startIcon={<AddIcon />}
            disabled={!account.is_active}
            onClick={() => setCreating(true)}
            data-testid="token-create"
          >
            {translate('service_accounts.tokens.add')}
          </Button>
        )
      }
    >
      <Stack spacing={2}>
        {failure && (
          <Alert severity="error" onClose={() => setFailure('')} data-testid="token-error">
            {failure}
          </Alert>
        )}
        <CardTable<ApiToken>
          rows={tokens.data}
          columns={columns}
          rowKey={(x) => x.id}
          loading={tokens.isPending}
          error={tokens.error}
          onRetry={() => void tokens.refetch()}
          empty={translate('service_accounts.tokens.empty')}
          emptyTestId="tokens-empty"
          rowTestId="token-row"
          ariaLabel={translate('service_accounts.tokens.caption')}
          actionsLabel={canManage ? translate('service_accounts.tokens.revoke') : undefined}
          actions={
            canManage
              ? (x) =>
                  x.status === 'active' && (
                    <Tooltip title={translate('service_accounts.tokens.revoke')}>
                      <IconButton
                        size="small"
                        aria-label={translate('service_accounts.tokens.revoke')}
                        onClick={() => setRevoking(x)}
                        data-testid="token-revoke"
                      >
                        <DeleteIcon fontSize="small" />
                      </IconButton>
                    </Tooltip>
                  )
              : undefined
          }
        />
      </Stack>
      {creating && (
        <CreateTokenDialog
          account={account}
          onClose={() => setCreating(false)}
          onCreated={(token) => {
            setCreating(false);
            setCreated(token);
            void changed();
          }}
        />
      )}
      {created && <TokenCreatedDialog token={created} onClose={() => setCreated(null)} />}
      <Confirm
        isOpen={revoking !== null}
        loading={busy}
        title="service_accounts.tokens.revoke_title"
        content="service_accounts.tokens.revoke_content"
        translateOptions={{ name: revoking?.name ?? '', prefix: revoking?.prefix ?? '' }}
        onClose={() => setRevoking(null)}
        onConfirm={() => {
          if (revoking) void revoke(revoking);
        }}
      />
    </TableCard>
  );
};
