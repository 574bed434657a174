import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslate } from 'react-admin';
import { useMutation } from '@tanstack/react-query';
import { Alert, Box, CircularProgress, Stack, TextField, Typography } from '@mui/material';
import { useAppDataProvider } from '../dataProvider/useAppDataProvider';
import { ErrorState } from '../components/ErrorState';
import { useReason } from '../lib/notice';
import { SetupActions, type FactorSetupProps } from './SetupActions';

/** The secret in groups of four, as authenticator apps ask for it to be typed. */
const grouped = (secret: string) => secret.replace(/(.{4})(?=.)/g, '$1 ');

/**
 * The QR code as an image of its own: the SVG the server drew is never put into the page's markup, so nothing in it
 * can run or style the console.
 */
const qrSource = (svg: string) => `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;

/**
 * Setting up an authenticator app: a new secret as a QR code and as a key to type, confirmed by the first code the app
 * shows. Opening it again starts a new secret (one not yet confirmed is replaced).
 */
export const TotpSetup = ({ onEnrolled, onCancel }: FactorSetupProps) => {
  const translate = useTranslate();
  const reason = useReason();
  const dataProvider = useAppDataProvider();
  const [code, setCode] = useState('');
  const start = useMutation({ mutationFn: () => dataProvider.startTotpEnrolment() });
  const confirm = useMutation({
    mutationFn: (value: string) => dataProvider.confirmTotpEnrolment(value),
    onSuccess: onEnrolled,
  });
  // One secret per opening, also when React mounts the screen twice in development.
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    start.mutate();
  }, [start]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const value = code.replace(/[\s-]/g, '');
    if (value) confirm.mutate(value);
  };

  if (start.isError) return <ErrorState error={start.error} onRetry={() => start.mutate()} />;
  if (!start.data)
    return (
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }} role="status">
        <CircularProgress size={20} />
        <Typography variant="body2">{translate('second_factor.totp.starting')}</Typography>
      </Stack>
    );

  const { qr_svg: svg, secret } = start.data;
  return (
    <Stack spacing={2} component="form" onSubmit={submit} noValidate data-testid="totp-setup">
      <Typography variant="body2">{translate('second_factor.totp.scan')}</Typography>
      <Box
        component="img"
        src={qrSource(svg)}
        alt={translate('second_factor.totp.qr_alt')}
        sx={{ width: 200, height: 200, alignSelf: 'center', bgcolor: '#fff', p: 1, borderRadius: 1 }}
        data-testid="totp-qr"
      />
      <Box>
        <Typography variant="body2" color="text.secondary">
          {translate('second_factor.totp.manual')}
        </Typography>
        <Typography
          component="code"
          data-testid="totp-secret"
          data-secret={secret}
          sx={{ fontFamily: 'monospace', fontSize: '1.05rem', wordBreak: 'break-all', userSelect: 'all' }}
        >
          {grouped(secret)}
        </Typography>
      </Box>
      <TextField
        label={translate('second_factor.totp.code')}
        helperText={translate('second_factor.totp.code_help')}
        value={code}
        onChange={(e) => setCode(e.target.value)}
        autoComplete="one-time-code"
        slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 8 } }}
        size="small"
        fullWidth
      />
      {confirm.isError ? (
        <Alert severity="error" data-testid="totp-confirm-error">
          {translate('second_factor.totp.confirm_failed', { reason: reason(confirm.error) })}
        </Alert>
      ) : null}
      <SetupActions
        submitLabel="second_factor.totp.confirm"
        busy={confirm.isPending}
        ready={!!code.trim()}
        onCancel={onCancel}
      />
    </Stack>
  );
};
