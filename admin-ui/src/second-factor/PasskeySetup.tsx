import { useState, type FormEvent } from 'react';
import { useTranslate } from 'react-admin';
import { useMutation } from '@tanstack/react-query';
import { Alert, Stack, TextField, Typography } from '@mui/material';
import { useAppDataProvider } from '../dataProvider/useAppDataProvider';
import { isPasskeyCancelled } from '../dataProvider/webauthn';
import { useReason } from '../lib/notice';
import { deviceOf } from '../account/device';
import { SetupActions, type FactorSetupProps } from './SetupActions';

/** A first name for the passkey: the browser and system it is made on ("Chrome on Linux"), which the user may change. */
function suggestedName(): string {
  const { browser, os } = deviceOf(typeof navigator === 'undefined' ? null : navigator.userAgent);
  return [browser, os].filter(Boolean).join(' · ').slice(0, 64);
}

/** Adding a passkey: a name to know it by, then the browser's own prompt creates it on this device or a security key. */
export const PasskeySetup = ({ onEnrolled, onCancel }: FactorSetupProps) => {
  const translate = useTranslate();
  const reason = useReason();
  const dataProvider = useAppDataProvider();
  const [name, setName] = useState(suggestedName);
  const register = useMutation({
    mutationFn: (value: string) => dataProvider.registerPasskey(value),
    onSuccess: onEnrolled,
  });
  const supported = typeof window !== 'undefined' && 'PublicKeyCredential' in window;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (name.trim()) register.mutate(name.trim());
  };

  if (!supported) return <Alert severity="info">{translate('second_factor.passkey.unsupported')}</Alert>;

  return (
    <Stack spacing={2} component="form" onSubmit={submit} noValidate data-testid="passkey-setup">
      <Typography variant="body2">{translate('second_factor.passkey.explain')}</Typography>
      <TextField
        label={translate('second_factor.passkey.name')}
        helperText={translate('second_factor.passkey.name_help')}
        value={name}
        onChange={(e) => setName(e.target.value)}
        slotProps={{ htmlInput: { maxLength: 64 } }}
        size="small"
        fullWidth
        required
      />
      {register.isError ? (
        <Alert severity={isPasskeyCancelled(register.error) ? 'warning' : 'error'} data-testid="passkey-setup-error">
          {isPasskeyCancelled(register.error)
            ? translate('second_factor.passkey.cancelled')
            : translate('second_factor.passkey.failed', { reason: reason(register.error) })}
        </Alert>
      ) : null}
      <SetupActions
        submitLabel="second_factor.passkey.create"
        busy={register.isPending}
        ready={!!name.trim()}
        onCancel={onCancel}
      />
    </Stack>
  );
};
