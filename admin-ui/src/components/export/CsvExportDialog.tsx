import { useState } from 'react';
import { useLocaleState } from 'react-admin';
import {
  Alert,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  LinearProgress,
  Stack,
  Typography,
} from '@mui/material';
import type { ExportPage, ExportRequest } from '../../dataProvider/methods/exports';
import { useCsvExport } from './useCsvExport';
import { useExportTranslate } from './messages';

type Choice = 'page' | 'all';

export interface CsvExportProps {
  /** The list's filter and sort, as it lists with them. */
  request: ExportRequest;
  /** The page the list shows. */
  page: ExportPage;
  /** Rows on that page. */
  pageRows: number;
  /** Every row the list matches. */
  total: number;
  /** The list is loading: its counts are not yet those of the screen. */
  loading: boolean;
}

/** Asks which rows to export, then shows the download moving (or why it failed) until the file is saved. */
const CsvExportDialog = ({ request, page, pageRows, total, onClose }: CsvExportProps & { onClose: () => void }) => {
  const translate = useExportTranslate();
  const [locale] = useLocaleState();
  const { state, start, cancel } = useCsvExport(request);
  const [choice, setChoice] = useState<Choice>('page');
  const running = state.status === 'running';
  const counted = (n: number) => ({ smart_count: n, count: n.toLocaleString(locale) });
  const run = (next: Choice) => {
    setChoice(next);
    void start(next === 'page' ? page : undefined, onClose);
  };
  // Cancel stops the download under way as well as the question.
  const close = () => {
    cancel();
    onClose();
  };
  const expected = choice === 'page' ? pageRows : total;

  return (
    <Dialog open onClose={close} aria-labelledby="csv-export-title" data-testid="export-dialog">
      <DialogTitle id="csv-export-title">{translate('export.title')}</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 2 }}>{translate('export.hint')}</DialogContentText>
        <Stack spacing={1}>
          <Button variant="outlined" disabled={running} onClick={() => run('page')} data-testid="export-page">
            {translate('export.this_page', counted(pageRows))}
          </Button>
          <Button variant="outlined" disabled={running} onClick={() => run('all')} data-testid="export-all">
            {translate('export.all', counted(total))}
          </Button>
        </Stack>
        {state.status === 'running' && (
          <Box sx={{ mt: 2 }} role="status" data-testid="export-progress">
            <LinearProgress
              variant="determinate"
              value={expected > 0 ? Math.min(100, (state.rows / expected) * 100) : 0}
            />
            <Typography variant="body2" sx={{ mt: 1 }}>
              {translate('export.progress', counted(state.rows))}
            </Typography>
          </Box>
        )}
        {state.status === 'failed' && (
          <Alert severity="error" sx={{ mt: 2 }} data-testid="export-error">
            {translate('export.failed', { reason: state.message })}
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={close} data-testid="export-cancel">
          {translate('ra.action.cancel')}
        </Button>
      </DialogActions>
    </Dialog>
  );
};

export default CsvExportDialog;
