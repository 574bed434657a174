import { useState, type FocusEvent } from 'react';
import { useTranslate } from 'react-admin';
import { Alert, Button, Dialog, DialogActions, DialogContent, DialogTitle, Stack, TextField } from '@mui/material';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import type { ApiTokenCreated } from '../../types';

/**
 * The one time a token's secret is seen: a read-only field to select, a Copy button, and a warning that it will not
 * be shown again. Closing drops it: the console keeps it nowhere.
 */
export const TokenCreatedDialog = ({ token, onClose }: { token: ApiTokenCreated; onClose: () => void }) => {
  const translate = useTranslate();
  const [copy, setCopy] = useState<'idle' | 'copied' | 'failed'>('idle');

  const copyToken = async () => {
    try {
      await navigator.clipboard.writeText(token.token);
      setCopy('copied');
    } catch {
      setCopy('failed');
    }
  };

  return (
    <Dialog open fullWidth maxWidth="md" aria-labelledby="token-created-title" data-testid="token-created">
      <DialogTitle id="token-created-title">{translate('service_accounts.tokens.copy_title')}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ mt: 1 }}>
          <Alert severity="warning">{translate('service_accounts.tokens.copy_warning')}</Alert>
          <TextField
            label={translate('service_accounts.tokens.value')}
            value={token.token}
            fullWidth
            slotProps={{
              input: { readOnly: true, sx: { fontFamily: 'monospace' } },
              htmlInput: {
                'data-testid': 'token-value',
                onFocus: (e: FocusEvent<HTMLInputElement>) => e.currentTarget.select(),
              },
            }}
          />
          {copy === 'failed' && <Alert severity="info">{translate('service_accounts.tokens.copy_failed')}</Alert>}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button startIcon={<ContentCopyIcon />} onClick={() => void copyToken()} data-testid="token-copy">
          {translate(copy === 'copied' ? 'service_accounts.tokens.copied' : 'service_accounts.tokens.copy')}
        </Button>
        <Button variant="contained" onClick={onClose} data-testid="token-done">
          {translate('service_accounts.tokens.done')}
        </Button>
      </DialogActions>
    </Dialog>
  );
};
