import { useEffect, useRef, useState } from 'react';
import { type Identifier } from 'react-admin';
import {
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  IconButton,
  LinearProgress,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
} from '@mui/material';
import CloseIcon from '@mui/icons-material/Close';
import { useAppDataProvider } from '../../dataProvider/useAppDataProvider';
import type { BulkActionOf, BulkOutcome, BulkResource, BulkRowResult } from '../../dataProvider/methods/bulk';
import { useNotice } from '../../lib/notice';
import { useBulkTranslate } from './messages';

type Stage =
  { kind: 'confirm' } | { kind: 'running' } | { kind: 'results'; outcome: BulkOutcome; names: Record<string, string> };

export interface BulkDialogProps<R extends BulkResource> {
  resource: R;
  action: BulkActionOf<R>;
  actionLabel: string;
  /** The rows to act on: the selection when the action was chosen. */
  ids: readonly Identifier[];
  /** Ask first (a destructive action), else run at once. */
  confirm: boolean;
  labelOf: (id: Identifier) => string;
  /** Called with the rows that failed once the server answered, so they stay selected; the list refreshes. */
  onAnswered: (failedIds: readonly Identifier[]) => void;
  onClose: () => void;
}

/**
 * One bulk action from question to outcome: the confirmation of a destructive action naming the count, progress while
 * the request runs, then a success notice when every row went through, or the rows it could not change with each
 * reason. A partial failure is never reported as a success.
 */
const BulkDialog = <R extends BulkResource>(props: BulkDialogProps<R>) => {
  const { ids } = props;
  const translate = useBulkTranslate();
  const notice = useNotice(translate);
  const dataProvider = useAppDataProvider();
  const [stage, setStage] = useState<Stage>({ kind: props.confirm ? 'confirm' : 'running' });
  const started = useRef(false);

  const run = async () => {
    if (started.current) return;
    started.current = true;
    setStage({ kind: 'running' });
    try {
      const outcome = await dataProvider.bulkAction(props.resource, props.action, ids.map(String));
      const failed = ids.filter((id) => outcome.results.some((r) => !r.ok && r.id === String(id)));
      if (failed.length === 0) {
        // Translated here: the notification area sits outside the lists and knows only the console's own keys.
        notice('bulk.done', { type: 'success', args: { action: props.actionLabel, smart_count: outcome.succeeded } });
        props.onAnswered([]);
        props.onClose();
        return;
      }
      // Named now, while the rows are on the page: the refresh may move them.
      const names = Object.fromEntries(failed.map((id) => [String(id), props.labelOf(id)]));
      setStage({ kind: 'results', outcome, names });
      props.onAnswered(failed);
    } catch (error) {
      notice('bulk.failed', { type: 'error', error });
      props.onClose();
    }
  };

  // An action that needs no confirmation starts as soon as the dialog opens.
  useEffect(() => {
    if (!props.confirm) void run();
    // Runs once, on opening: `run` guards against a second start.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  if (stage.kind === 'confirm') {
    return (
      <Dialog open onClose={props.onClose} aria-labelledby="bulk-confirm-title" data-testid="bulk-confirm">
        <DialogTitle id="bulk-confirm-title">
          {translate(`bulk.confirm.${props.action}_title`, { smart_count: ids.length })}
        </DialogTitle>
        <DialogContent>
          <DialogContentText>{translate(`bulk.confirm.${props.action}_content`)}</DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={props.onClose} data-testid="bulk-confirm-cancel">
            {translate('ra.action.cancel')}
          </Button>
          <Button variant="contained" color="error" onClick={() => void run()} data-testid="bulk-confirm-ok">
            {props.actionLabel}
          </Button>
        </DialogActions>
      </Dialog>
    );
  }

  if (stage.kind === 'running') {
    // Not closable while the server works: the outcome must reach the user.
    return (
      <Dialog open aria-labelledby="bulk-running-title" data-testid="bulk-running">
        <DialogTitle id="bulk-running-title">{props.actionLabel}</DialogTitle>
        <DialogContent sx={{ minWidth: 320 }}>
          <div role="status" data-testid="bulk-progress">
            <LinearProgress />
            <DialogContentText sx={{ mt: 1 }}>
              {translate('bulk.running', { smart_count: ids.length })}
            </DialogContentText>
          </div>
        </DialogContent>
      </Dialog>
    );
  }

  const { outcome, names } = stage;
  const failed = outcome.results.filter((r) => !r.ok);
  const reason = (r: BulkRowResult) =>
    r.problem?.detail || r.problem?.title || translate('bulk.results.unknown_reason', { status: r.status });
  return (
    <Dialog
      open
      onClose={props.onClose}
      aria-labelledby="bulk-results-title"
      maxWidth="md"
      fullWidth
      data-testid="bulk-results"
    >
      <DialogTitle id="bulk-results-title" sx={{ pr: 6 }}>
        {translate('bulk.results.title', { action: props.actionLabel })}
        <IconButton
          aria-label={translate('app.common.close')}
          onClick={props.onClose}
          sx={{ position: 'absolute', right: 8, top: 8 }}
        >
          <CloseIcon />
        </IconButton>
      </DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 2 }} data-testid="bulk-results-summary">
          {translate('bulk.results.summary', { succeeded: outcome.succeeded, failed: failed.length })}
        </DialogContentText>
        <Table size="small">
          <TableHead>
            <TableRow>
              <TableCell sx={{ fontWeight: 600 }}>{translate('bulk.results.row')}</TableCell>
              <TableCell sx={{ fontWeight: 600 }}>{translate('bulk.results.reason')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {failed.map((r) => (
              <TableRow key={r.id} data-testid="bulk-failed-row">
                <TableCell>{names[r.id] ?? r.id}</TableCell>
                <TableCell>{reason(r)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </DialogContent>
      <DialogActions>
        <Button onClick={props.onClose} data-testid="bulk-results-close">
          {translate('app.common.close')}
        </Button>
      </DialogActions>
    </Dialog>
  );
};

export default BulkDialog;
