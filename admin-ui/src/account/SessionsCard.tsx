import { useState } from 'react';
import { Confirm, useTranslate } from 'react-admin';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Box,
  Button,
  Card,
  CardContent,
  Chip,
  CircularProgress,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Tooltip,
  Typography,
} from '@mui/material';
import { useAppDataProvider } from '../dataProvider/useAppDataProvider';
import type { AccountSession } from '../dataProvider/methods/account';
import { ErrorState } from '../components/ErrorState';
import { useNotice } from '../lib/notice';
import { useFormat } from '../lib/format';
import { deviceOf } from './device';

export const SESSIONS_KEY = ['me', 'sessions'] as const;

/** The device of a session in words ("Chrome on Linux"). */
function useDeviceName() {
  const translate = useTranslate();
  return (userAgent: string | null) => {
    const { browser, os } = deviceOf(userAgent);
    if (!browser && !os) return translate('account.sessions.unknown_device');
    return translate('account.sessions.device_name', {
      browser: browser ?? translate('account.sessions.unknown_browser'),
      os: os ?? translate('account.sessions.unknown_os'),
    });
  };
}

/**
 * The caller's signed-in devices: this one marked, every other one revocable on its own or all at once. A revoked
 * device is signed out at its next request.
 */
export const SessionsCard = () => {
  const translate = useTranslate();
  const notice = useNotice();
  const dataProvider = useAppDataProvider();
  const queryClient = useQueryClient();
  const deviceName = useDeviceName();
  const { dateTime } = useFormat();
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

  const rows = sessions.data?.data ?? [];
  const others = rows.filter((s) => !s.current).length;

  return (
    <Card data-testid="sessions-card">
      <CardContent>
        <Stack
          direction={{ xs: 'column', sm: 'row' }}
          spacing={2}
          sx={{ justifyContent: 'space-between', alignItems: { sm: 'center' }, mb: 2 }}
        >
          <Box>
            <Typography variant="h6" component="h2">
              {translate('account.sessions.title')}
            </Typography>
            <Typography variant="body2" color="text.secondary">
              {translate('account.sessions.intro')}
            </Typography>
          </Box>
          <Button
            variant="outlined"
            color="error"
            onClick={() => setRevokingOthers(true)}
            disabled={others === 0 || revokeOthers.isPending}
          >
            {translate('account.sessions.revoke_others')}
          </Button>
        </Stack>
        {sessions.isPending ? (
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }} role="status">
            <CircularProgress size={20} />
            <Typography variant="body2">{translate('account.sessions.loading')}</Typography>
          </Stack>
        ) : sessions.isError ? (
          <ErrorState
            error={new Error(translate('account.sessions.load_failed'))}
            onRetry={() => void sessions.refetch()}
          />
        ) : rows.length === 0 ? (
          <Typography variant="body2" color="text.secondary" data-testid="sessions-empty">
            {translate('account.sessions.empty')}
          </Typography>
        ) : (
          <TableContainer>
            <Table size="small" aria-label={translate('account.sessions.title')}>
              <TableHead>
                <TableRow>
                  <TableCell>{translate('account.sessions.device')}</TableCell>
                  <TableCell>{translate('account.sessions.ip')}</TableCell>
                  <TableCell>{translate('account.sessions.signed_in')}</TableCell>
                  <TableCell>{translate('account.sessions.last_used')}</TableCell>
                  <TableCell align="right">{translate('account.sessions.actions')}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {rows.map((s) => {
                  const name = deviceName(s.user_agent);
                  return (
                    <TableRow key={s.id} data-testid="session-row">
                      <TableCell>
                        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                          <Tooltip title={s.user_agent ?? ''} disableHoverListener={!s.user_agent}>
                            <span>{name}</span>
                          </Tooltip>
                          {s.current ? (
                            <Chip size="small" color="primary" label={translate('account.sessions.this_device')} />
                          ) : null}
                        </Stack>
                      </TableCell>
                      <TableCell>{s.ip ?? translate('account.sessions.unknown_ip')}</TableCell>
                      <TableCell>{dateTime(s.created_at)}</TableCell>
                      <TableCell>{dateTime(s.last_used_at)}</TableCell>
                      <TableCell align="right">
                        {s.current ? null : (
                          <Button
                            size="small"
                            color="error"
                            aria-label={translate('account.sessions.revoke_label', { device: name })}
                            onClick={() => setRevoking(s)}
                            disabled={revoke.isPending}
                          >
                            {translate('account.sessions.revoke')}
                          </Button>
                        )}
                      </TableCell>
                    </TableRow>
                  );
                })}
              </TableBody>
            </Table>
          </TableContainer>
        )}
      </CardContent>
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
    </Card>
  );
};
