import { useState } from 'react';
import { useTranslate } from 'react-admin';
import { Alert, Box, Button, Checkbox, FormControlLabel, Stack } from '@mui/material';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import DownloadIcon from '@mui/icons-material/Download';
import { useNotice } from '../lib/notice';

/** The file the codes are saved as: one code a line, after a line that says what they are for. */
function codesFile(codes: readonly string[], heading: string): Blob {
  return new Blob([`${heading}\n\n${codes.join('\n')}\n`], { type: 'text/plain;charset=utf-8' });
}

function download(blob: Blob, filename: string) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.click();
  // The click has handed the file to the browser; the address is no longer needed.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/**
 * The ten recovery codes, shown this once: the server keeps only their hashes. They can be copied or saved as a text
 * file, and the user says they have kept them before going on.
 */
export const RecoveryCodes = ({ codes, onDone }: { codes: readonly string[]; onDone: () => void }) => {
  const translate = useTranslate();
  const notice = useNotice();
  const [kept, setKept] = useState(false);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(codes.join('\n'));
      notice('second_factor.recovery.copied', { type: 'success' });
    } catch (error) {
      notice('second_factor.recovery.copy_failed', { type: 'warning', error });
    }
  };

  return (
    <Stack spacing={2} data-testid="recovery-codes">
      <Alert severity="warning">{translate('second_factor.recovery.once')}</Alert>
      <Box
        component="ol"
        aria-label={translate('second_factor.recovery.title')}
        sx={{
          display: 'grid',
          gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' },
          gap: 1,
          m: 0,
          pl: 4,
          fontFamily: 'monospace',
          fontSize: '1.05rem',
        }}
      >
        {codes.map((code) => (
          <li key={code} data-testid="recovery-code">
            {code}
          </li>
        ))}
      </Box>
      <Stack direction="row" spacing={1} useFlexGap flexWrap="wrap">
        <Button variant="outlined" startIcon={<ContentCopyIcon />} onClick={() => void copy()}>
          {translate('second_factor.recovery.copy')}
        </Button>
        <Button
          variant="outlined"
          startIcon={<DownloadIcon />}
          onClick={() =>
            download(codesFile(codes, translate('second_factor.recovery.file_heading')), 'recovery-codes.txt')
          }
        >
          {translate('second_factor.recovery.download')}
        </Button>
      </Stack>
      <FormControlLabel
        control={<Checkbox checked={kept} onChange={(e) => setKept(e.target.checked)} />}
        label={translate('second_factor.recovery.acknowledge')}
      />
      <Stack direction="row" sx={{ justifyContent: 'flex-end' }}>
        <Button variant="contained" disabled={!kept} onClick={onDone}>
          {translate('second_factor.recovery.continue')}
        </Button>
      </Stack>
    </Stack>
  );
};
