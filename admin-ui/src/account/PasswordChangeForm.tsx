import { useState, type FormEvent } from 'react';
import { useTranslate } from 'react-admin';
import {
  Alert,
  Box,
  Button,
  CircularProgress,
  List,
  ListItem,
  ListItemIcon,
  ListItemText,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import CheckIcon from '@mui/icons-material/CheckCircleOutline';
import PendingIcon from '@mui/icons-material/RadioButtonUnchecked';
import { useAppDataProvider } from '../dataProvider/useAppDataProvider';
import { fieldProblemsOf, statusOf } from '../lib/problems';
import { fieldOfRefusal, passwordRules, type PasswordField, type PasswordOwner } from './passwordRules';

const isPasswordField = (field: string): field is PasswordField =>
  field === 'current_password' || field === 'new_password';

/** A refused change (400) under the field it is about: the field error the server names, else its detail. */
function refusalOf(error: unknown): { field: PasswordField; message: string } | null {
  if (statusOf(error) !== 400) return null;
  const named = fieldProblemsOf(error).find((p) => isPasswordField(p.field));
  if (named && isPasswordField(named.field)) return { field: named.field, message: named.message };
  const detail = error instanceof Error ? error.message : '';
  return detail ? { field: fieldOfRefusal(detail), message: detail } : null;
}

const Rule = ({ met, label }: { met: boolean | null; label: string }) => (
  <ListItem disableGutters sx={{ py: 0 }} data-testid="password-rule" data-met={met === null ? 'unknown' : String(met)}>
    <ListItemIcon sx={{ minWidth: 28 }}>
      {met ? <CheckIcon fontSize="small" color="success" /> : <PendingIcon fontSize="small" color="disabled" />}
    </ListItemIcon>
    <ListItemText
      primary={label}
      slotProps={{ primary: { variant: 'body2', color: met ? 'text.primary' : 'text.secondary' } }}
    />
  </ListItem>
);

/**
 * Current, new and confirmed password, with the rules checked as the user types. A refusal of the server is shown
 * under the field it is about; `onChanged` runs once the server has taken the new password.
 */
export const PasswordChangeForm = ({
  owner,
  submitLabel = 'account.password.submit',
  onChanged,
}: {
  owner: PasswordOwner | null;
  submitLabel?: string;
  onChanged?: () => void | Promise<void>;
}) => {
  const translate = useTranslate();
  const dataProvider = useAppDataProvider();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [confirm, setConfirm] = useState('');
  const [busy, setBusy] = useState(false);
  const [fieldError, setFieldError] = useState<{ field: PasswordField; message: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);

  const rules = passwordRules(next, current, owner);
  const mismatch = confirm !== '' && confirm !== next;
  const ready = current !== '' && rules.length && rules.identity && rules.differs && confirm === next && !busy;

  // Never rejects (a failure is shown to the user), so the buttons fire it and forget it.
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!ready) return;
    setBusy(true);
    setFieldError(null);
    setError(null);
    setDone(false);
    try {
      await dataProvider.changeMyPassword({ current_password: current, new_password: next });
      setCurrent('');
      setNext('');
      setConfirm('');
      setDone(true);
      await onChanged?.();
    } catch (err) {
      const refusal = refusalOf(err);
      const message = err instanceof Error ? err.message : '';
      if (refusal) setFieldError(refusal);
      else
        setError(translate('account.password.failed', { reason: message ? translate(message, { _: message }) : '' }));
    } finally {
      setBusy(false);
    }
  };

  const errorOf = (field: PasswordField) => (fieldError?.field === field ? fieldError.message : undefined);
  const edit = (set: (v: string) => void, field?: PasswordField) => (v: string) => {
    set(v);
    setDone(false);
    if (field && fieldError?.field === field) setFieldError(null);
  };

  return (
    <Box
      component="form"
      onSubmit={(e) => void submit(e)}
      noValidate
      data-testid="password-change-form"
      sx={{ maxWidth: 420 }}
    >
      <Stack spacing={2}>
        {done ? (
          <Alert severity="success" data-testid="password-changed">
            {translate('account.password.changed')}
          </Alert>
        ) : null}
        {error ? <Alert severity="error">{error}</Alert> : null}
        {/* The username lets password managers file the new password under the right account. */}
        <input type="text" name="username" autoComplete="username" value={owner?.username ?? ''} readOnly hidden />
        <TextField
          label={translate('account.password.current')}
          type="password"
          value={current}
          onChange={(e) => edit(setCurrent, 'current_password')(e.target.value)}
          autoComplete="current-password"
          error={!!errorOf('current_password')}
          helperText={errorOf('current_password')}
          required
          fullWidth
          size="small"
        />
        <TextField
          label={translate('account.password.new')}
          type="password"
          value={next}
          onChange={(e) => edit(setNext, 'new_password')(e.target.value)}
          autoComplete="new-password"
          error={!!errorOf('new_password')}
          helperText={errorOf('new_password')}
          required
          fullWidth
          size="small"
        />
        <Box>
          <Typography variant="body2" color="text.secondary">
            {translate('account.password.rules.title')}
          </Typography>
          <List dense disablePadding aria-label={translate('account.password.rules.title')}>
            <Rule met={rules.length} label={translate('account.password.rules.length')} />
            <Rule met={rules.identity} label={translate(`account.password.rules.identity_${rules.identityRule}`)} />
            <Rule met={null} label={translate('account.password.rules.common')} />
            <Rule met={rules.differs} label={translate('account.password.rules.differs')} />
          </List>
        </Box>
        <TextField
          label={translate('account.password.confirm')}
          type="password"
          value={confirm}
          onChange={(e) => edit(setConfirm)(e.target.value)}
          autoComplete="new-password"
          error={mismatch}
          helperText={mismatch ? translate('account.password.mismatch') : undefined}
          required
          fullWidth
          size="small"
        />
        <Box>
          <Button
            type="submit"
            variant="contained"
            disabled={!ready}
            startIcon={busy ? <CircularProgress size={16} /> : undefined}
          >
            {translate(submitLabel)}
          </Button>
        </Box>
      </Stack>
    </Box>
  );
};
