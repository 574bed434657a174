import { useState } from 'react';
import { useTranslate } from 'react-admin';
import { Alert, Button, Dialog, DialogActions, DialogContent, DialogTitle, Stack, TextField } from '@mui/material';
import type { ServiceAccount } from '../../types';
import { useAppDataProvider } from '../../dataProvider/useAppDataProvider';
import { useReason } from '../../lib/notice';

/** A name and what the account is for; the server's refusal (a name taken, not a valid name) stays in the dialog. */
export const CreateServiceAccountDialog = (props: {
  onClose: () => void;
  onCreated: (account: ServiceAccount) => void;
}) => {
  const translate = useTranslate();
  const problemText = useReason();
  const dataProvider = useAppDataProvider();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  // Never rejects (a failure is shown in the dialog), so the button fires it and forgets it.
  const submit = async () => {
    setBusy(true);
    setError('');
    try {
      props.onCreated(
        await dataProvider.createServiceAccount({ name: name.trim(), description: description.trim() || null }),
      );
    } catch (e) {
      setError(problemText(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open onClose={props.onClose} fullWidth maxWidth="sm" aria-labelledby="service-account-create-title">
      <DialogTitle id="service-account-create-title">{translate('service_accounts.create_title')}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ mt: 1 }}>
          {error && (
            <Alert severity="error" data-testid="service-account-create-error">
              {error}
            </Alert>
          )}
          <TextField
            label={translate('service_accounts.name')}
            helperText={translate('service_accounts.name_help')}
            value={name}
            onChange={(e) => setName(e.target.value)}
            required
            autoFocus
            inputProps={{ 'data-testid': 'service-account-name', maxLength: 64 }}
          />
          <TextField
            label={translate('service_accounts.description')}
            value={description}
            onChange={(e) => setDescription(e.target.value)}
            multiline
            minRows={2}
            inputProps={{ 'data-testid': 'service-account-description', maxLength: 500 }}
          />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={props.onClose}>{translate('service_accounts.cancel')}</Button>
        <Button
          variant="contained"
          disabled={busy || name.trim().length < 3}
          onClick={() => void submit()}
          data-testid="service-account-save"
        >
          {translate('service_accounts.create')}
        </Button>
      </DialogActions>
    </Dialog>
  );
};
