import { useState } from 'react';
import { Confirm, useTranslate } from 'react-admin';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Box, Button, Card, CardContent, CardHeader, CircularProgress, Stack, Typography } from '@mui/material';
import type { UserAccount } from '../../types';
import { useAppDataProvider } from '../../dataProvider/useAppDataProvider';
import { ErrorState } from '../../components/ErrorState';
import { useNotice } from '../../lib/notice';
import { useFormat } from '../../lib/format';
import { userSessionsKey } from './UserSessionsCard';

const Fact = ({ label, value, testId }: { label: string; value: string; testId: string }) => (
  <Box sx={{ minWidth: 160 }}>
    <Typography variant="caption" color="text.secondary" component="div">
      {label}
    </Typography>
    <Typography variant="body2" sx={{ mt: 0.5 }} data-testid={testId}>
      {value}
    </Typography>
  </Box>
);

/**
 * What second factors this person has, for a `user.manage` holder, and the reset for a lost device: every factor is
 * removed, the person must set one up again at the next sign-in, and every session of the account ends.
 */
export const UserSecondFactorsCard = ({ user }: { user: UserAccount }) => {
  const translate = useTranslate();
  const notice = useNotice();
  const { dateTime } = useFormat();
  const dataProvider = useAppDataProvider();
  const queryClient = useQueryClient();
  const key = ['userSecondFactors', user.id];
  const factors = useQuery({ queryKey: key, queryFn: () => dataProvider.getUserSecondFactors(user.id) });
  const [confirming, setConfirming] = useState(false);
  const name = user.username;

  const reset = useMutation({
    mutationFn: () => dataProvider.resetSecondFactors(user.id),
    onSuccess: () => notice('resources.users.second_factors.reset_done', { type: 'success', args: { name } }),
    onError: (error) => notice('resources.users.second_factors.reset_failed', { type: 'error', args: { name }, error }),
    onSettled: () => {
      setConfirming(false);
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: key }),
        queryClient.invalidateQueries({ queryKey: userSessionsKey(user.id) }),
        queryClient.invalidateQueries({ queryKey: ['auditEvents'] }),
      ]);
    },
  });

  const data = factors.data;
  const hasAny = !!data && (!!data.totp || data.passkeys.length > 0 || !!data.recovery_codes);
  const f = (k: string, args?: Record<string, unknown>) => translate(`resources.users.second_factors.${k}`, args);

  return (
    <Card data-testid="user-second-factors">
      <CardHeader
        title={f('title')}
        action={
          <Button color="error" onClick={() => setConfirming(true)} disabled={!hasAny || reset.isPending}>
            {f('reset')}
          </Button>
        }
      />
      <CardContent>
        {factors.isError ? (
          <ErrorState error={factors.error} onRetry={() => void factors.refetch()} />
        ) : !data ? (
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }} role="status">
            <CircularProgress size={20} />
            <Typography variant="body2">{f('loading')}</Typography>
          </Stack>
        ) : (
          <Stack spacing={2}>
            {data.required && !data.totp && data.passkeys.length === 0 ? (
              <Alert severity="info" data-testid="second-factors-required">
                {f(data.required_reason === 'reset' ? 'must_enrol_reset' : 'must_enrol_policy')}
              </Alert>
            ) : null}
            <Stack direction="row" spacing={3} useFlexGap flexWrap="wrap">
              <Fact
                testId="second-factor-totp"
                label={f('totp')}
                value={data.totp ? f('totp_on', { since: dateTime(data.totp.confirmed_at) }) : f('none')}
              />
              <Fact
                testId="second-factor-passkeys"
                label={f('passkeys')}
                value={data.passkeys.length ? data.passkeys.map((p) => p.name).join(', ') : f('none')}
              />
              <Fact
                testId="second-factor-recovery"
                label={f('recovery')}
                value={
                  data.recovery_codes ? f('recovery_left', { smart_count: data.recovery_codes.remaining }) : f('none')
                }
              />
            </Stack>
          </Stack>
        )}
      </CardContent>
      <Confirm
        isOpen={confirming}
        loading={reset.isPending}
        title="resources.users.second_factors.reset_title"
        content="resources.users.second_factors.reset_content"
        translateOptions={{ name }}
        onConfirm={() => reset.mutate()}
        onClose={() => setConfirming(false)}
      />
    </Card>
  );
};
