import { useState } from 'react';
import { Confirm, useTranslate } from 'react-admin';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Box, Button, Divider, Stack, Typography } from '@mui/material';
import { useAppDataProvider } from '../dataProvider/useAppDataProvider';
import type { SecondFactorEnrolled, SecondFactors } from '../dataProvider/methods/secondFactors';
import { TableCard } from '../components/card-table';
import { ErrorState } from '../components/ErrorState';
import { useNotice } from '../lib/notice';
import { useFormat } from '../lib/format';
import { FactorDialog } from './FactorDialog';
import { PasskeysSection } from './PasskeysSection';
import { RecoveryCodes } from './RecoveryCodes';
import { TotpSetup } from './TotpSetup';

export const SECOND_FACTORS_KEY = ['me', 'second-factors'] as const;

const Section = (props: { title: string; status: string; testId: string; action: React.ReactNode }) => (
  <Stack
    direction={{ xs: 'column', sm: 'row' }}
    spacing={1}
    sx={{ justifyContent: 'space-between', alignItems: { sm: 'center' } }}
    data-testid={props.testId}
  >
    <Box>
      <Typography variant="subtitle1" component="h3">
        {props.title}
      </Typography>
      <Typography variant="body2" color="text.secondary" data-testid={`${props.testId}-status`}>
        {props.status}
      </Typography>
    </Box>
    {props.action}
  </Stack>
);

/**
 * My account's second factors: the authenticator app, the passkeys and the recovery codes. Removing one, adding a
 * passkey to an account that already has a factor, and new recovery codes may ask "Confirm it is you" first (the
 * session fetch asks in place, then goes on).
 */
export const SecondFactorsCard = () => {
  const translate = useTranslate();
  const notice = useNotice();
  const { dateTime } = useFormat();
  const dataProvider = useAppDataProvider();
  const queryClient = useQueryClient();
  const factors = useQuery({ queryKey: SECOND_FACTORS_KEY, queryFn: () => dataProvider.getMySecondFactors() });
  const refresh = () => queryClient.invalidateQueries({ queryKey: SECOND_FACTORS_KEY });
  const [settingUp, setSettingUp] = useState(false);
  const [confirming, setConfirming] = useState<'remove_totp' | 'regenerate' | null>(null);
  const [codes, setCodes] = useState<readonly string[] | null>(null);

  const enrolled = (result: SecondFactorEnrolled) => {
    queryClient.setQueryData<SecondFactors>(SECOND_FACTORS_KEY, result.factors);
    if (result.recovery_codes?.length) setCodes(result.recovery_codes);
  };

  const removeTotp = useMutation({
    mutationFn: () => dataProvider.removeTotp(),
    onSuccess: () => notice('second_factor.totp.removed', { type: 'success' }),
    onError: (error) => notice('second_factor.totp.remove_failed', { type: 'error', error }),
    onSettled: () => {
      setConfirming(null);
      return refresh();
    },
  });
  const regenerate = useMutation({
    mutationFn: () => dataProvider.regenerateRecoveryCodes(),
    onSuccess: (fresh) => setCodes(fresh),
    onError: (error) => notice('second_factor.recovery.regenerate_failed', { type: 'error', error }),
    onSettled: () => {
      setConfirming(null);
      return refresh();
    },
  });

  const data = factors.data;
  const totp = data?.totp ?? null;
  const recovery = data?.recovery_codes ?? null;
  const hasFactor = !!totp || (data?.passkeys.length ?? 0) > 0;
  const used = (at: string | null | undefined) => (at ? dateTime(at) : translate('second_factor.card.never'));

  return (
    <TableCard
      testId="second-factors-card"
      title={translate('second_factor.card.title')}
      subheader={translate('second_factor.card.intro')}
      refreshing={factors.isFetching && !factors.isPending}
    >
      {factors.isError ? (
        <ErrorState error={factors.error} onRetry={() => void factors.refetch()} />
      ) : (
        <Stack spacing={2}>
          <Section
            testId="totp-section"
            title={translate('second_factor.kinds.totp')}
            status={
              factors.isPending
                ? translate('ra.page.loading')
                : totp
                  ? translate('second_factor.totp.status_on', {
                      since: dateTime(totp.confirmed_at),
                      used: used(totp.last_used_at),
                    })
                  : translate('second_factor.totp.status_off')
            }
            action={
              totp ? (
                <Button color="error" onClick={() => setConfirming('remove_totp')} disabled={removeTotp.isPending}>
                  {translate('second_factor.card.remove')}
                </Button>
              ) : (
                <Button variant="outlined" onClick={() => setSettingUp(true)} disabled={factors.isPending}>
                  {translate('second_factor.totp.set_up')}
                </Button>
              )
            }
          />
          <Divider />
          <PasskeysSection
            passkeys={data?.passkeys}
            loading={factors.isPending}
            onChanged={refresh}
            onEnrolled={enrolled}
          />
          <Divider />
          <Section
            testId="recovery-section"
            title={translate('second_factor.recovery.title')}
            status={
              recovery
                ? translate('second_factor.recovery.remaining', { smart_count: recovery.remaining })
                : translate('second_factor.recovery.none')
            }
            action={
              <Button
                variant="outlined"
                onClick={() => setConfirming('regenerate')}
                disabled={!hasFactor || regenerate.isPending}
              >
                {translate('second_factor.recovery.regenerate')}
              </Button>
            }
          />
        </Stack>
      )}
      {settingUp && (
        <FactorDialog title="second_factor.totp.title" testId="totp-dialog" onClose={() => setSettingUp(false)}>
          <TotpSetup
            onCancel={() => setSettingUp(false)}
            onEnrolled={(result) => {
              setSettingUp(false);
              notice('second_factor.totp.added', { type: 'success' });
              enrolled(result);
            }}
          />
        </FactorDialog>
      )}
      {codes && (
        <FactorDialog title="second_factor.recovery.title" testId="recovery-dialog">
          <RecoveryCodes codes={codes} onDone={() => setCodes(null)} />
        </FactorDialog>
      )}
      <Confirm
        isOpen={confirming !== null}
        loading={removeTotp.isPending || regenerate.isPending}
        title={`second_factor.confirm.${confirming ?? 'remove_totp'}_title`}
        content={`second_factor.confirm.${confirming ?? 'remove_totp'}_content`}
        onConfirm={() => (confirming === 'regenerate' ? regenerate.mutate() : removeTotp.mutate())}
        onClose={() => setConfirming(null)}
      />
    </TableCard>
  );
};
