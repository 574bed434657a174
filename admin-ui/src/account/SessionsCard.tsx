import { useState } from 'react';
import { Confirm, useTranslate } from 'react-admin';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button } from '@mui/material';
import { useAppDataProvider } from '../dataProvider/useAppDataProvider';
import type { AccountSession } from '../dataProvider/methods/account';
import { CardTable, TableCard, type CardColumn } from '../components/card-table';
import { useNotice } from '../lib/notice';
import { DateTimeText } from '../components/DateTimeText';
import { SessionDevice, useDeviceName } from './SessionDevice';

export const SESSIONS_KEY = ['me', 'sessions'] as const;

/**
 * The caller's signed-in devices: this one marked, every other one revocable on its own or all at once. A revoked
 * device is signed out at its next request.
 */
export const SessionsCard = () => {
  const translate = useTranslate();
  const notice = useNotice();
  const dataProvider = useAppDataProvider();
  const queryClient = useQueryClient();
  const deviceName = useDeviceName('account.sessions');
  const [revoking, setRevoking] = useState<AccountSession | null>(null);
  const [revokingOthers, setRevokingOthers] = useState(false);

  const sessions = useQuery({ queryKey: SESSIONS_KEY, queryFn: () => dataProvider.listMySessions() });
  const refresh = () => queryClient.invalidateQueries({ queryKey: SESSIONS_KEY });

  const revoke = useMutation({
    mutationFn: (session: AccountSession) => dataProvider.revokeMySession(session.id),
    onSuccess: (_, session) =>
      notice('account.sessions.revoked', { type: 'success', args: { device: deviceName(session.user_agent) } }),
    onError: (error, session) =>
      notice('account.sessions.revoke_failed', {
        type: 'error',
        args: { device: deviceName(session.user_agent) },
        error,
      }),
    onSettled: () => {
      setRevoking(null);
      return refresh();
    },
  });

  const revokeOthers = useMutation({
    mutationFn: () => dataProvider.revokeMyOtherSessions(),
    onSuccess: ({ revoked }) =>
      notice('account.sessions.revoked_others', { type: 'success', args: { smart_count: revoked } }),
    onError: (error) => notice('account.sessions.revoke_others_failed', { type: 'error', error }),
    onSettled: () => {
      setRevokingOthers(false);
      return refresh();
    },
  });

  const rows = sessions.data?.data;
  const others = (rows ?? []).filter((s) => !s.current).length;
  const columns: CardColumn<AccountSession>[] = [
    {
      id: 'device',
      label: translate('account.sessions.device'),
      render: (s) => (
        <SessionDevice
          name={deviceName(s.user_agent)}
          userAgent={s.user_agent}
          mark={s.current ? translate('account.sessions.this_device') : null}
        />
      ),
    },
    {
      id: 'ip',
      label: translate('account.sessions.ip'),
      render: (s) => s.ip ?? translate('account.sessions.unknown_ip'),
      hideBelow: 'md',
    },
    {
      id: 'signed_in',
      label: translate('account.sessions.signed_in'),
      render: (s) => <DateTimeText value={s.created_at} />,
    },
    {
      id: 'last_used',
      label: translate('account.sessions.last_used'),
      render: (s) => <DateTimeText value={s.last_used_at} />,
    },
  ];

  return (
    <TableCard
      testId="sessions-card"
      title={translate('account.sessions.title')}
      subheader={translate('account.sessions.intro')}
      query={sessions}
      action={
        <Button
          variant="outlined"
          color="error"
          onClick={() => setRevokingOthers(true)}
          disabled={others === 0 || revokeOthers.isPending}
        >
          {translate('account.sessions.revoke_others')}
        </Button>
      }
    >
      <CardTable<AccountSession>
        rows={rows}
        loading={sessions.isPending}
        // The card's own words: the request's failure says nothing an operator can act on.
        error={sessions.isError ? new Error(translate('account.sessions.load_failed')) : undefined}
        onRetry={() => void sessions.refetch()}
        columns={columns}
        rowKey={(s) => s.id}
        empty={translate('account.sessions.empty')}
        emptyTestId="sessions-empty"
        rowTestId="session-row"
        ariaLabel={translate('account.sessions.title')}
        actionsLabel={translate('account.sessions.actions')}
        actions={(s) =>
          s.current ? null : (
            <Button
              size="small"
              color="error"
              aria-label={translate('account.sessions.revoke_label', { device: deviceName(s.user_agent) })}
              onClick={() => setRevoking(s)}
              disabled={revoke.isPending}
            >
              {translate('account.sessions.revoke')}
            </Button>
          )
        }
      />
      <Confirm
        isOpen={revoking !== null}
        loading={revoke.isPending}
        title="account.sessions.revoke_title"
        content="account.sessions.revoke_content"
        translateOptions={{ device: revoking ? deviceName(revoking.user_agent) : '' }}
        onConfirm={() => revoking && revoke.mutate(revoking)}
        onClose={() => setRevoking(null)}
      />
      <Confirm
        isOpen={revokingOthers}
        loading={revokeOthers.isPending}
        title="account.sessions.revoke_others_title"
        content="account.sessions.revoke_others_content"
        onConfirm={() => revokeOthers.mutate()}
        onClose={() => setRevokingOthers(false)}
      />
    </TableCard>
  );
};
