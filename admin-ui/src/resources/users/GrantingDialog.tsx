import { useState, type ReactNode } from 'react';
import { useTranslate } from 'react-admin';
import { Alert, Button, Dialog, DialogActions, DialogContent, DialogTitle, Stack } from '@mui/material';
import { useReason } from '../../lib/notice';

/**
 * The call of a dialog that hands out a key (a grant, an SSO group mapping): busy while it runs, and the server's
 * refusal kept in the dialog in its own words.
 */
export function useGrantingCall<T>(send: () => Promise<T>, onDone: (result: T) => void) {
  const reasonOf = useReason();
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  // Never rejects (a failure is shown to the user), so the buttons fire it and forget it.
  const submit = async () => {
    setBusy(true);
    setError('');
    try {
      onDone(await send());
    } catch (e) {
      setError(reasonOf(e));
    } finally {
      setBusy(false);
    }
  };
  return { error, busy, submit };
}

/** The frame of a dialog that hands out a key: its fields, the refusal if any, Cancel and Add. */
export const GrantingDialog = (props: {
  title: string;
  /** `<testId>` on the dialog, `<testId>-error` and `<testId>-submit` on its refusal and its Add. */
  testId: string;
  ready: boolean;
  call: { error: string; busy: boolean; submit: () => Promise<void> };
  onClose: () => void;
  children: ReactNode;
}) => {
  const translate = useTranslate();
  const { call } = props;
  return (
    <Dialog open onClose={props.onClose} fullWidth maxWidth="sm" data-testid={`${props.testId}-dialog`}>
      <DialogTitle>{props.title}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ mt: 1 }}>
          {props.children}
          {call.error && (
            <Alert severity="error" data-testid={`${props.testId}-error`}>
              {call.error}
            </Alert>
          )}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={props.onClose}>{translate('ra.action.cancel')}</Button>
        <Button
          variant="contained"
          disabled={!props.ready || call.busy}
          onClick={() => void call.submit()}
          data-testid={`${props.testId}-submit`}
        >
          {translate('ra.action.add')}
        </Button>
      </DialogActions>
    </Dialog>
  );
};
