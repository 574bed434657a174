import { useState, type FormEvent, type ReactNode } from 'react';
import { useTranslate } from 'react-admin';
import { Alert, Box, Button, CircularProgress, Divider, Link, Stack, TextField } from '@mui/material';
import KeyIcon from '@mui/icons-material/Key';
import type { StepUpMethod } from '../dataProvider/stepUp';

/** What the user gives as a second factor: a code of either kind, or the passkey ceremony. */
export type Proof = { method: 'totp' | 'recovery_code'; code: string } | { method: 'passkey' };

/** Spaces and dashes as people type them from the app are not part of an authenticator code. */
const cleanCode = (method: 'totp' | 'recovery_code', code: string) =>
  method === 'totp' ? code.replace(/[\s-]/g, '') : code.trim().toLowerCase();

/**
 * The second factor, asked for at the second step of a sign-in and at a step-up: a code from the authenticator app
 * or, switched to, a recovery code; and "Use a passkey" when the account has one. The caller sends the proof and
 * says what went wrong (`error`).
 */
export const ProofForm = (props: {
  methods: readonly StepUpMethod[];
  submitLabel: string;
  busy: boolean;
  error?: ReactNode;
  onSubmit: (proof: Proof) => void;
  /** Buttons beside the submit one (Cancel, Start again). */
  extraActions?: ReactNode;
  idPrefix: string;
}) => {
  const translate = useTranslate();
  const hasTotp = props.methods.includes('totp');
  const hasRecovery = props.methods.includes('recovery_code');
  const hasCode = hasTotp || hasRecovery;
  const [method, setMethod] = useState<'totp' | 'recovery_code'>(hasTotp ? 'totp' : 'recovery_code');
  const [code, setCode] = useState('');
  const other = method === 'totp' ? 'recovery_code' : 'totp';
  const canSwitch = method === 'totp' ? hasRecovery : hasTotp;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const cleaned = cleanCode(method, code);
    if (cleaned) props.onSubmit({ method, code: cleaned });
  };

  return (
    <Stack spacing={2}>
      {props.error ? (
        <Alert severity="error" data-testid={`${props.idPrefix}-error`} role="alert">
          {props.error}
        </Alert>
      ) : null}
      {hasCode && (
        <Box component="form" onSubmit={submit} noValidate>
          <Stack spacing={1.5}>
            <TextField
              id={`${props.idPrefix}-code`}
              key={method}
              label={translate(method === 'totp' ? 'second_factor.proof.totp' : 'second_factor.proof.recovery')}
              helperText={translate(
                method === 'totp' ? 'second_factor.proof.totp_help' : 'second_factor.proof.recovery_help',
              )}
              value={code}
              onChange={(e) => setCode(e.target.value)}
              autoComplete="one-time-code"
              slotProps={{
                htmlInput: method === 'totp' ? { inputMode: 'numeric', maxLength: 8 } : { maxLength: 20 },
              }}
              autoFocus
              fullWidth
              size="small"
            />
            {canSwitch && (
              <Link
                component="button"
                type="button"
                variant="body2"
                sx={{ alignSelf: 'flex-start' }}
                onClick={() => {
                  setMethod(other);
                  setCode('');
                }}
              >
                {translate(other === 'totp' ? 'second_factor.proof.use_totp' : 'second_factor.proof.use_recovery')}
              </Link>
            )}
            <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
              {props.extraActions}
              <Button
                type="submit"
                variant="contained"
                disabled={props.busy || !code.trim()}
                startIcon={props.busy ? <CircularProgress size={16} /> : undefined}
              >
                {props.submitLabel}
              </Button>
            </Stack>
          </Stack>
        </Box>
      )}
      {props.methods.includes('passkey') && (
        <>
          {hasCode && <Divider>{translate('second_factor.proof.or')}</Divider>}
          <Button
            variant="outlined"
            startIcon={<KeyIcon />}
            disabled={props.busy}
            onClick={() => props.onSubmit({ method: 'passkey' })}
          >
            {translate('second_factor.proof.use_passkey')}
          </Button>
          {!hasCode && props.extraActions ? (
            <Stack direction="row" sx={{ justifyContent: 'flex-end' }}>
              {props.extraActions}
            </Stack>
          ) : null}
        </>
      )}
    </Stack>
  );
};
