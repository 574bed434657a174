import type { ReactNode } from 'react';
import { useTranslate } from 'react-admin';
import { Dialog, DialogContent, DialogTitle } from '@mui/material';

/** A dialog around one setup step (an authenticator, a passkey) or the recovery codes, titled by its message key. */
export const FactorDialog = (props: {
  title: string;
  testId: string;
  /** Undefined while the dialog must not be closed from outside (the recovery codes wait for their acknowledgement). */
  onClose?: () => void;
  children: ReactNode;
}) => {
  const translate = useTranslate();
  const titleId = `${props.testId}-title`;
  return (
    <Dialog open onClose={props.onClose} fullWidth maxWidth="sm" aria-labelledby={titleId} data-testid={props.testId}>
      <DialogTitle id={titleId}>{translate(props.title)}</DialogTitle>
      <DialogContent>{props.children}</DialogContent>
    </Dialog>
  );
};
