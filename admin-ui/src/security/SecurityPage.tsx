import { useEffect, useState } from 'react';
import { Title, useTranslate } from 'react-admin';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Box,
  Button,
  Card,
  CardContent,
  CardHeader,
  CircularProgress,
  FormControl,
  FormControlLabel,
  FormLabel,
  Radio,
  RadioGroup,
  Stack,
  Typography,
} from '@mui/material';
import { useAppDataProvider } from '../dataProvider/useAppDataProvider';
import type { SecondFactorPolicy, SecondFactorPolicyUpdate } from '../dataProvider/methods/secondFactors';
import { RequireAccess } from '../components/RequireAccess';
import { ErrorState } from '../components/ErrorState';
import { ScreenMessages } from '../components/history/ScreenMessages';
import { useNotice } from '../lib/notice';
import { SECURITY_MESSAGES } from './messages';

const REQUIRED_FOR = [
  'none',
  'privileged',
  'everyone',
] as const satisfies readonly SecondFactorPolicy['required_for'][];
const SSO_SIGN_INS = ['trusted', 'second-factor'] as const satisfies readonly SecondFactorPolicy['sso_sign_ins'][];
const POLICY_KEY = ['secondFactorPolicy'] as const;

const isRequiredFor = (v: string): v is SecondFactorPolicy['required_for'] =>
  (REQUIRED_FOR as readonly string[]).includes(v);
const isSsoSignIns = (v: string): v is SecondFactorPolicy['sso_sign_ins'] =>
  (SSO_SIGN_INS as readonly string[]).includes(v);

/** The second-factor policy: who must enrol, and whether a single sign-on is asked for it. Saving may ask for a step-up. */
const PolicyCard = () => {
  const translate = useTranslate();
  const notice = useNotice();
  const dataProvider = useAppDataProvider();
  const queryClient = useQueryClient();
  const policy = useQuery({ queryKey: POLICY_KEY, queryFn: () => dataProvider.getSecondFactorPolicy() });
  const [draft, setDraft] = useState<SecondFactorPolicyUpdate | null>(null);
  useEffect(() => {
    if (policy.data) setDraft({ required_for: policy.data.required_for, sso_sign_ins: policy.data.sso_sign_ins });
  }, [policy.data]);

  const save = useMutation({
    mutationFn: (body: SecondFactorPolicyUpdate) => dataProvider.updateSecondFactorPolicy(body),
    onSuccess: (saved) => {
      queryClient.setQueryData(POLICY_KEY, saved);
      notice('security.policy.saved', { type: 'success' });
    },
    onError: (error) => notice('security.policy.save_failed', { type: 'error', error }),
  });

  const t = (k: string, args?: Record<string, unknown>) => translate(`security.policy.${k}`, args);
  const data = policy.data;
  const changed =
    !!data && !!draft && (draft.required_for !== data.required_for || draft.sso_sign_ins !== data.sso_sign_ins);

  return (
    <Card data-testid="second-factor-policy">
      <CardHeader title={t('title')} subheader={t('intro')} />
      <CardContent>
        {policy.isPending || !draft ? (
          policy.isError ? (
            <ErrorState error={policy.error} onRetry={() => void policy.refetch()} />
          ) : (
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }} role="status">
              <CircularProgress size={20} />
              <Typography variant="body2">{t('loading')}</Typography>
            </Stack>
          )
        ) : (
          <Stack spacing={3}>
            <FormControl>
              <FormLabel id="required-for-label">{t('required_for')}</FormLabel>
              <RadioGroup
                aria-labelledby="required-for-label"
                value={draft.required_for}
                onChange={(e) => isRequiredFor(e.target.value) && setDraft({ ...draft, required_for: e.target.value })}
              >
                {REQUIRED_FOR.map((v) => (
                  <FormControlLabel key={v} value={v} control={<Radio />} label={t(`required.${v}`)} />
                ))}
              </RadioGroup>
            </FormControl>
            <FormControl>
              <FormLabel id="sso-sign-ins-label">{t('sso_sign_ins')}</FormLabel>
              <RadioGroup
                aria-labelledby="sso-sign-ins-label"
                value={draft.sso_sign_ins}
                onChange={(e) => isSsoSignIns(e.target.value) && setDraft({ ...draft, sso_sign_ins: e.target.value })}
              >
                {SSO_SIGN_INS.map((v) => (
                  <FormControlLabel key={v} value={v} control={<Radio />} label={t(`sso.${v}`)} />
                ))}
              </RadioGroup>
            </FormControl>
            <Typography variant="body2" color="text.secondary" data-testid="policy-source">
              {t(data?.source === 'console' ? 'source_console' : 'source_configuration', {
                configured: t(`required.${data?.configured ?? 'none'}`),
              })}
            </Typography>
            <Box>
              <Button
                variant="contained"
                disabled={!changed || save.isPending}
                onClick={() => save.mutate(draft)}
                startIcon={save.isPending ? <CircularProgress size={16} /> : undefined}
              >
                {t('save')}
              </Button>
            </Box>
          </Stack>
        )}
      </CardContent>
    </Card>
  );
};

/** /security — super admins only. */
export const SecurityPage = () => {
  const translate = useTranslate();
  return (
    <RequireAccess action="list" resource="security">
      <ScreenMessages modules={SECURITY_MESSAGES}>
        <Box sx={{ py: 2 }} data-testid="security-page">
          <Title title="app.security.title" />
          <Typography variant="h5" component="h1" sx={{ mb: 2 }}>
            {translate('app.security.title')}
          </Typography>
          <PolicyCard />
        </Box>
      </ScreenMessages>
    </RequireAccess>
  );
};
