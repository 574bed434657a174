import { useState } from 'react';
import { useTranslate } from 'react-admin';
import { useQuery } from '@tanstack/react-query';
import {
  Alert,
  Autocomplete,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Stack,
  TextField,
} from '@mui/material';
import type { WebhookWithSecret } from '../../types';
import { ClusterAutocomplete, type ClusterName } from '../users/RecordAutocomplete';
import { useAppDataProvider } from '../../dataProvider/useAppDataProvider';
import { useReason } from '../../lib/notice';
import { FormDialog, useDialogCall } from '../../components/FormDialog';

/**
 * A new webhook: its URL, the event types it sends and, optionally, the one cluster whose events it sends (picked from
 * the clusters the caller may read). The server's refusal (not https, a private address, an unknown event type) stays
 * in the dialog in its own words.
 */
export const CreateWebhookDialog = (props: { onClose: () => void; onCreated: (w: WebhookWithSecret) => void }) => {
  const translate = useTranslate();
  const dataProvider = useAppDataProvider();
  const problemText = useReason();
  const types = useQuery({ queryKey: ['webhookEventTypes'], queryFn: () => dataProvider.listWebhookEventTypes() });
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [events, setEvents] = useState<string[]>([]);
  const [cluster, setCluster] = useState<ClusterName | null>(null);
  const call = useDialogCall(
    () =>
      dataProvider.createWebhook({
        url: url.trim(),
        description: description.trim() || null,
        event_types: events,
        ...(cluster ? { cluster_id: cluster.id } : {}),
      }),
    props.onCreated,
  );

  return (
    <FormDialog
      title={translate('webhooks.create.title')}
      titleId="webhook-create-title"
      onClose={props.onClose}
      call={call}
      ready={url.trim() !== '' && events.length > 0}
      submitLabel="webhooks.create.save"
      cancelLabel="webhooks.create.cancel"
      submitTestId="webhook-save"
      errorTestId="webhook-create-error"
    >
      <TextField
        label={translate('webhooks.url')}
        helperText={translate('webhooks.create.url_help')}
        value={url}
        onChange={(e) => setUrl(e.target.value)}
        required
        autoFocus
        slotProps={{ htmlInput: { 'data-testid': 'webhook-url' } }}
      />
      <TextField
        label={translate('webhooks.create.description')}
        value={description}
        onChange={(e) => setDescription(e.target.value)}
      />
      {types.isError ? (
        <Alert severity="error">{problemText(types.error)}</Alert>
      ) : (
        <Autocomplete
          multiple
          options={['*', ...(types.data ?? [])]}
          loading={types.isPending}
          value={events}
          onChange={(_e, value) => setEvents(value)}
          renderInput={(params) => (
            <TextField
              {...params}
              label={translate('webhooks.events')}
              helperText={translate('webhooks.create.events_help')}
            />
          )}
          data-testid="webhook-events"
        />
      )}
      <ClusterAutocomplete
        label={translate('webhooks.create.cluster')}
        value={cluster}
        onChange={setCluster}
        size="medium"
        testId="webhook-cluster"
      />
    </FormDialog>
  );
};

/** The signing secret, shown once after a create or a rotation, with a copy button. */
export const SecretDialog = (props: { secret: string; onClose: () => void }) => {
  const translate = useTranslate();
  const [copied, setCopied] = useState(false);
  return (
    <Dialog open onClose={props.onClose} fullWidth maxWidth="sm" aria-labelledby="webhook-secret-title">
      <DialogTitle id="webhook-secret-title">{translate('webhooks.secret.title')}</DialogTitle>
      <DialogContent>
        <Stack spacing={2}>
          <Alert severity="warning">{translate('webhooks.secret.body')}</Alert>
          <TextField
            value={props.secret}
            slotProps={{
              htmlInput: { readOnly: true, 'data-testid': 'webhook-secret', style: { fontFamily: 'monospace' } },
            }}
          />
          {copied && <Alert severity="success">{translate('webhooks.secret.copied')}</Alert>}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={() => void navigator.clipboard?.writeText(props.secret).then(() => setCopied(true))}>
          {translate('webhooks.secret.copy')}
        </Button>
        <Button variant="contained" onClick={props.onClose} data-testid="webhook-secret-done">
          {translate('webhooks.secret.done')}
        </Button>
      </DialogActions>
    </Dialog>
  );
};
