import { useState, type ChangeEvent, type DragEvent } from 'react';
import { useTranslate } from 'react-admin';
import { Box, Button, Card, CardContent, Link as MuiLink, Typography } from '@mui/material';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import { downloadText } from '../lib/csv';
import { templateCsv } from './importFile';
import { ImportStatus } from './ImportStatus';
import type { MemberImportState } from './useMemberImport';

// The downloaded template, as lines on the screen.
const EXAMPLE = templateCsv().replace(/\r\n/g, '\n').trimEnd();

const formatSize = (bytes: number) =>
  bytes < 1024
    ? `${bytes} B`
    : bytes < 1024 * 1024
      ? `${(bytes / 1024).toFixed(1)} kB`
      : `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** Step 1: what the file holds (with an example and a template), the file itself (chosen or dropped), and Check. */
export const ImportChooseCard = ({ state }: { state: MemberImportState }) => {
  const t = useTranslate();
  const [dragging, setDragging] = useState(false);
  const { file, busy, result, plan } = state;
  const locked = busy !== null || result !== null;

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    if (!locked) state.choose(e.dataTransfer.files[0]);
  };

  return (
    <Card>
      <CardContent>
        <Typography variant="h6" gutterBottom>
          {t('member_import.step_choose')}
        </Typography>
        <Typography variant="body2" sx={{ mb: 2 }}>
          {t('member_import.intro')}
        </Typography>
        <Typography variant="subtitle2">{t('member_import.columns_title')}</Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          {t('member_import.columns_help')}
        </Typography>
        <Typography variant="subtitle2">{t('member_import.example_title')}</Typography>
        <Box
          component="pre"
          data-testid="import-example"
          sx={{
            fontFamily: 'monospace',
            fontSize: 13,
            bgcolor: 'action.hover',
            p: 1,
            borderRadius: 1,
            whiteSpace: 'pre-wrap',
            overflowWrap: 'anywhere',
            mt: 0.5,
          }}
        >
          {EXAMPLE}
        </Box>
        <MuiLink
          component="button"
          type="button"
          underline="hover"
          onClick={() => downloadText('members-template.csv', templateCsv())}
          data-testid="import-template"
        >
          {t('member_import.template')}
        </MuiLink>

        <Box
          onDragOver={(e) => {
            e.preventDefault();
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={onDrop}
          data-testid="import-drop-zone"
          sx={{
            mt: 2,
            p: 3,
            border: '2px dashed',
            borderColor: dragging ? 'primary.main' : 'divider',
            borderRadius: 1,
            textAlign: 'center',
          }}
        >
          <Typography color="text.secondary" sx={{ mb: 1 }}>
            {t('member_import.drop_here')}
          </Typography>
          <Button variant="outlined" component="label" startIcon={<UploadFileIcon />} disabled={locked}>
            {t('member_import.choose')}
            <input
              ref={state.inputRef}
              type="file"
              accept=".csv,text/csv"
              hidden
              aria-label={t('member_import.file_input')}
              data-testid="import-file-input"
              onChange={(e: ChangeEvent<HTMLInputElement>) => state.choose(e.target.files?.[0])}
            />
          </Button>
          <Typography sx={{ mt: 1 }} data-testid="import-file-name" color={file ? 'text.primary' : 'text.secondary'}>
            {file
              ? t('member_import.file_chosen', { name: file.name, size: formatSize(file.size) })
              : t('member_import.no_file')}
          </Typography>
        </Box>

        <ImportStatus state={state} />

        {!plan && !result && (
          <Box sx={{ mt: 2 }}>
            <Button
              variant="contained"
              disabled={!file || state.tooBig || busy !== null}
              onClick={state.check}
              data-testid="import-check"
            >
              {t('member_import.check')}
            </Button>
          </Box>
        )}
      </CardContent>
    </Card>
  );
};
