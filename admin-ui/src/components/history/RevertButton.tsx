import { useState } from 'react';
import { useCanAccess, useRefresh, useTranslate } from 'react-admin';
import { Alert, Button, Dialog, DialogActions, DialogContent, DialogTitle, List, ListItem } from '@mui/material';
import UndoIcon from '@mui/icons-material/Undo';
import type { AuditEvent } from '../../types';
import { useNotice, useReason } from '../../lib/notice';
import { useFieldLabel } from './words';
import { revertResource } from './revert';
import { useAppDataProvider } from '../../dataProvider/useAppDataProvider';

const PRECONDITION_FAILED = 412;
const statusOf = (error: unknown) => (error as { status?: number } | null)?.status;
const text = (value: unknown, empty: string) =>
  value === null || value === undefined || value === ''
    ? empty
    : typeof value === 'string'
      ? value
      : JSON.stringify(value);

/** Asks before reverting, naming each field with the value it holds and the one it goes back to. */
const RevertDialog = ({ event, onClose }: { event: AuditEvent; onClose: () => void }) => {
  const translate = useTranslate();
  const refresh = useRefresh();
  const dataProvider = useAppDataProvider();
  const problemText = useReason();
  const notice = useNotice();
  const fieldLabel = useFieldLabel(event.target_type);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // After a refusal for a later change, the same revert would be refused again: only Cancel is left.
  const [stale, setStale] = useState(false);
  const empty = translate('audit.history.empty_value');
  const revert = async () => {
    setBusy(true);
    setError(null);
    try {
      await dataProvider.revertAuditEvent(event.id);
      notice('audit.revert.done', { type: 'success' });
      onClose();
      refresh();
    } catch (err) {
      // Changed by someone else since: the History reloads so the newest change is there to revert instead.
      setError(statusOf(err) === PRECONDITION_FAILED ? translate('audit.revert.stale') : problemText(err));
      if (statusOf(err) === PRECONDITION_FAILED) {
        setStale(true);
        refresh();
      }
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" data-testid="revert-dialog">
      <DialogTitle>{translate('audit.revert.title')}</DialogTitle>
      <DialogContent>
        {translate('audit.revert.intro')}
        <List dense>
          {Object.entries(event.changes).map(([field, change]) => (
            <ListItem key={field} data-testid="revert-field">
              {translate('audit.revert.field', {
                field: fieldLabel(field),
                after: text(change.after, empty),
                before: text(change.before, empty),
              })}
            </ListItem>
          ))}
        </List>
        {error && (
          <Alert severity="error" data-testid="revert-error">
            {error}
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} data-testid="revert-cancel">
          {translate('audit.revert.cancel')}
        </Button>
        <Button onClick={() => void revert()} disabled={busy || stale} variant="contained" data-testid="revert-confirm">
          {translate('audit.revert.confirm')}
        </Button>
      </DialogActions>
    </Dialog>
  );
};

/**
 * Revert on a History entry: shown for a field change of a cluster, business unit or mapping, to a caller who may edit
 * that record (the server checks it again, with its tenancy and field rules).
 */
export const RevertButton = ({ event }: { event: AuditEvent }) => {
  const translate = useTranslate();
  const resource = revertResource(event);
  const record = { id: event.target_id ?? '', cluster_id: event.cluster_id };
  const { canAccess } = useCanAccess({ action: 'edit', resource: resource ?? 'audit-log', record });
  const [open, setOpen] = useState(false);
  if (!resource || canAccess !== true) return null;
  return (
    <>
      <Button size="small" startIcon={<UndoIcon />} onClick={() => setOpen(true)} data-testid="history-revert">
        {translate('audit.revert.button')}
      </Button>
      {open && <RevertDialog event={event} onClose={() => setOpen(false)} />}
    </>
  );
};
