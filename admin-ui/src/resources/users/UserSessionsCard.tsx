import { useState } from 'react';
import { Confirm, useTranslate } from 'react-admin';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button } from '@mui/material';
import type { UserAccount } from '../../types';
import { useAppDataProvider } from '../../dataProvider/useAppDataProvider';
import type { UserSession } from '../../dataProvider/methods/userSessions';
import { CardTable, TableCard, type CardColumn } from '../../components/card-table';
import { DateTimeText } from '../../components/DateTimeText';
import { useNotice } from '../../lib/notice';
import { SessionDevice, useDeviceName } from '../../account/SessionDevice';

export const userSessionsKey = (id: string) => ['userSessions', id] as const;

/**
 * The devices this person is signed in on, for a `user.manage` holder: how each signed in, from where, when it was
 * last used. One or all can be ended; an ended device is signed out at its next request.
 */
export const UserSessionsCard = ({ user }: { user: UserAccount }) => {
  const translate = useTranslate();
  const notice = useNotice();
  const dataProvider = useAppDataProvider();
  const queryClient = useQueryClient();
  const deviceName = useDeviceName('resources.users.sessions');
  const key = userSessionsKey(user.id);
  const sessions = useQuery({ queryKey: key, queryFn: () => dataProvider.listUserSessions(user.id) });
  const [ending, setEnding] = useState<UserSession | null>(null);
  const [endingAll, setEndingAll] = useState(false);
  const name = user.username;
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: key }),
      queryClient.invalidateQueries({ queryKey: ['auditEvents'] }),
    ]);

  const end = useMutation({
    mutationFn: (s: UserSession) => dataProvider.revokeUserSession(user.id, s.id),
    onSuccess: (_, s) =>
      notice('resources.users.sessions.ended', { type: 'success', args: { device: deviceName(s.user_agent), name } }),
    onError: (error, s) =>
      notice('resources.users.sessions.end_failed', {
        type: 'error',
        args: { device: deviceName(s.user_agent) },
        error,
      }),
    onSettled: () => {
      setEnding(null);
      return refresh();
    },
  });
  const endAll = useMutation({
    mutationFn: () => dataProvider.revokeUserSessions(user.id),
    onSuccess: ({ revoked }) =>
      notice('resources.users.sessions.ended_all', { type: 'success', args: { smart_count: revoked, name } }),
    onError: (error) => notice('resources.users.sessions.end_all_failed', { type: 'error', error }),
    onSettled: () => {
      setEndingAll(false);
      return refresh();
    },
  });

  const methodWords = (s: UserSession) =>
    s.methods
      .map((m) =>
        m === 'sso' && s.sso_provider
          ? translate('resources.users.sessions.via_sso', { provider: s.sso_provider })
          : translate(`resources.users.sessions.methods.${m}`),
      )
      .join(' + ');

  const columns: CardColumn<UserSession>[] = [
    {
      id: 'device',
      label: translate('resources.users.sessions.device'),
      render: (s) => (
        <SessionDevice
          name={deviceName(s.user_agent)}
          userAgent={s.user_agent}
          mark={s.current ? translate('resources.users.sessions.yours') : null}
        />
      ),
    },
    {
      id: 'ip',
      label: translate('resources.users.sessions.ip'),
      render: (s) => s.ip ?? translate('resources.users.sessions.unknown_ip'),
      hideBelow: 'md',
    },
    { id: 'method', label: translate('resources.users.sessions.method'), render: methodWords },
    {
      id: 'last_used_at',
      label: translate('resources.users.sessions.last_used'),
      render: (s) => <DateTimeText value={s.last_used_at} />,
    },
  ];

  const rows = sessions.data?.data;
  return (
    <TableCard
      testId="user-sessions"
      title={translate('resources.users.sessions.title')}
      subheader={translate('resources.users.sessions.intro')}
      refreshing={sessions.isFetching && !sessions.isPending}
      action={
        <Button color="error" onClick={() => setEndingAll(true)} disabled={!rows?.length || endAll.isPending}>
          {translate('resources.users.sessions.end_all')}
        </Button>
      }
    >
      <CardTable<UserSession>
        rows={rows}
        loading={sessions.isPending}
        error={sessions.isError ? sessions.error : undefined}
        onRetry={() => void sessions.refetch()}
        columns={columns}
        rowKey={(s) => s.id}
        empty={translate('resources.users.sessions.empty')}
        emptyTestId="user-sessions-empty"
        rowTestId="user-session-row"
        ariaLabel={translate('resources.users.sessions.title')}
        actionsLabel={translate('resources.users.sessions.actions')}
        actions={(s) => (
          <Button
            size="small"
            color="error"
            aria-label={translate('resources.users.sessions.end_label', { device: deviceName(s.user_agent) })}
            onClick={() => setEnding(s)}
            disabled={end.isPending}
          >
            {translate('resources.users.sessions.end')}
          </Button>
        )}
      />
      <Confirm
        isOpen={ending !== null}
        loading={end.isPending}
        title="resources.users.sessions.end_title"
        content="resources.users.sessions.end_content"
        translateOptions={{ device: ending ? deviceName(ending.user_agent) : '', name }}
        onConfirm={() => ending && end.mutate(ending)}
        onClose={() => setEnding(null)}
      />
      <Confirm
        isOpen={endingAll}
        loading={endAll.isPending}
        title="resources.users.sessions.end_all_title"
        content="resources.users.sessions.end_all_content"
        translateOptions={{ name }}
        onConfirm={() => endAll.mutate()}
        onClose={() => setEndingAll(false)}
      />
    </TableCard>
  );
};
