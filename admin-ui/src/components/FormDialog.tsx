import { useState, type ReactNode } from 'react';
import { useTranslate } from 'react-admin';
import { Alert, Button, Dialog, DialogActions, DialogContent, DialogTitle, Stack } from '@mui/material';
import type { Breakpoint } from '@mui/material/styles';
import { useReason } from '../lib/notice';

export interface DialogCall {
  /** The last refusal in words; empty when there is none. */
  error: string;
  busy: boolean;
  submit: () => void;
}

/**
 * The call of a dialog that keeps a refusal in place (a grant, a mapping, a service account, a token, a webhook):
 * busy while it runs, and the server's words kept in the dialog, cleared on the next try.
 */
export function useDialogCall<T>(send: () => Promise<T>, onDone: (result: T) => void): DialogCall {
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
  return { error, busy, submit: () => void submit() };
}

/**
 * The frame of the console's form dialogs: a title, the refusal if any (above the fields), the fields, Cancel and the
 * one action, which waits while the call runs. A dialog that says its refusal under a field passes no `errorTestId`.
 */
export const FormDialog = (props: {
  open?: boolean;
  title: ReactNode;
  onClose: () => void;
  call: DialogCall;
  /** The action is possible: the required fields are filled. */
  ready: boolean;
  /** Label keys: the action's, and Cancel's where the screen says it its own way. */
  submitLabel: string;
  cancelLabel?: string;
  testId?: string;
  /** Names the dialog for screen readers by its title. */
  titleId?: string;
  submitTestId: string;
  errorTestId?: string;
  maxWidth?: Breakpoint;
  children: ReactNode;
}) => {
  const translate = useTranslate();
  const { call } = props;
  return (
    <Dialog
      open={props.open ?? true}
      onClose={props.onClose}
      fullWidth
      maxWidth={props.maxWidth ?? 'sm'}
      data-testid={props.testId}
      aria-labelledby={props.titleId}
    >
      <DialogTitle id={props.titleId}>{props.title}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ mt: 1 }}>
          {call.error && props.errorTestId && (
            <Alert severity="error" data-testid={props.errorTestId}>
              {call.error}
            </Alert>
          )}
          {props.children}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={props.onClose}>{translate(props.cancelLabel ?? 'ra.action.cancel')}</Button>
        <Button
          variant="contained"
          disabled={!props.ready || call.busy}
          onClick={call.submit}
          data-testid={props.submitTestId}
        >
          {translate(props.submitLabel)}
        </Button>
      </DialogActions>
    </Dialog>
  );
};
