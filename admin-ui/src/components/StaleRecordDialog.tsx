import { useTranslate } from 'react-admin';
import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';

/**
 * Said when a save was refused because someone else saved the record after it was opened (412): the page shows
 * their version, and the operator edits again rather than overwriting it.
 */
export const StaleRecordDialog = ({
  open,
  onClose,
  message = 'app.common.stale_record',
}: {
  open: boolean;
  onClose: () => void;
  /** What was changed, when it is more than "this record" (a membership, say). */
  message?: string;
}) => {
  const translate = useTranslate();
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby="stale-record-title" data-testid="stale-record-dialog">
      <DialogTitle id="stale-record-title">{translate('app.record_changed.title')}</DialogTitle>
      <DialogContent>
        <DialogContentText>{translate(message)}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} variant="contained" autoFocus>
          {translate('app.record_changed.ok')}
        </Button>
      </DialogActions>
    </Dialog>
  );
};
