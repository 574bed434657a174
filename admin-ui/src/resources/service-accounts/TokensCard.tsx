import { useState } from 'react';
import { useCanAccess, useTranslate } from 'react-admin';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Chip } from '@mui/material';
import type { ApiToken, ApiTokenCreated, ServiceAccount } from '../../types';
import { useAppDataProvider } from '../../dataProvider/useAppDataProvider';
import { RecordsCard, useConfirmedRowAction, type CardColumn } from '../../components/card-table';
import { DateTimeText } from '../../components/DateTimeText';
import { CreateTokenDialog } from './CreateTokenDialog';
import { TokenCreatedDialog } from './TokenCreatedDialog';
import { useNotice } from '../../lib/notice';

const STATUS_COLOR = { active: 'success', expired: 'default', revoked: 'error' } as const;

/** The account's tokens (never a secret), with Create, the copy-once dialog, and Revoke, for `user.manage`. */
export const TokensCard = ({ account, onChanged }: { account: ServiceAccount; onChanged: () => Promise<unknown> }) => {
  const translate = useTranslate();
  const notice = useNotice();
  const dataProvider = useAppDataProvider();
  const queryClient = useQueryClient();
  const { canAccess: canManage } = useCanAccess({ action: 'edit', resource: 'service-accounts' });
  const queryKey = ['apiTokens', account.id];
  const tokens = useQuery({ queryKey, queryFn: () => dataProvider.listApiTokens(account.id) });
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<ApiTokenCreated | null>(null);

  const changed = async () => {
    await Promise.all([queryKey, ['auditEvents']].map((key) => queryClient.invalidateQueries({ queryKey: key })));
    await onChanged();
  };

  const revocation = useConfirmedRowAction<ApiToken>(
    (token) => dataProvider.revokeApiToken(account.id, token.id),
    (token) => {
      notice('service_accounts.tokens.revoked_notice', { type: 'success', args: { name: token.name } });
      return changed();
    },
  );

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
    <RecordsCard<ApiToken>
      testId="api-tokens"
      title={translate('service_accounts.tokens.title')}
      subheader={translate('service_accounts.tokens.intro')}
      query={tokens}
      rows={tokens.data}
      columns={columns}
      emptyKey="service_accounts.tokens.empty"
      captionKey="service_accounts.tokens.caption"
      emptyTestId="tokens-empty"
      rowTestId="token-row"
      add={
        canManage && {
          labelKey: 'service_accounts.tokens.add',
          testId: 'token-create',
          onClick: () => setCreating(true),
          disabled: !account.is_active,
        }
      }
      removal={
        canManage && {
          action: revocation,
          labelKey: 'service_accounts.tokens.revoke',
          testId: 'token-revoke',
          failureTestId: 'token-error',
          title: 'service_accounts.tokens.revoke_title',
          content: 'service_accounts.tokens.revoke_content',
          args: (x) => ({ name: x.name, prefix: x.prefix }),
          when: (x) => x.status === 'active',
        }
      }
    >
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
    </RecordsCard>
  );
};
