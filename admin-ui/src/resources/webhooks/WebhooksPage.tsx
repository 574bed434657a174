import { useState } from 'react';
import { Confirm, Title, useTranslate } from 'react-admin';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Box, Button, Chip, Stack, Tooltip, Typography } from '@mui/material';
import type { Webhook } from '../../types';
import { useAppDataProvider } from '../../dataProvider/useAppDataProvider';
import { RequireAccess } from '../../components/RequireAccess';
import { RecordsCard, type CardColumn } from '../../components/card-table';
import { ScreenMessages } from '../../components/history/ScreenMessages';
import { DateTimeText } from '../../components/DateTimeText';
import { webhookScreenMessages } from './messages';
import { CreateWebhookDialog, SecretDialog } from './CreateWebhookDialog';
import { DeliveryLog } from './DeliveryLog';
import { useNotice } from '../../lib/notice';

const MODULES = [webhookScreenMessages];
const WEBHOOKS = ['webhooks'];

/** The caller's webhooks, with Add (the secret shown once), on/off, a new secret, Delete, and each one's log. */
const WebhooksCard = () => {
  const translate = useTranslate();
  const dataProvider = useAppDataProvider();
  const queryClient = useQueryClient();
  const notice = useNotice();
  const hooks = useQuery({ queryKey: WEBHOOKS, queryFn: () => dataProvider.listWebhooks() });
  const [adding, setAdding] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  const [removing, setRemoving] = useState<Webhook | null>(null);
  const [viewing, setViewing] = useState<Webhook | null>(null);
  const [busy, setBusy] = useState(false);

  // Never rejects (a failure is shown to the user), so the buttons fire it and forget it.
  const act = async (work: () => Promise<unknown>, done?: string) => {
    setBusy(true);
    try {
      await work();
      if (done) notice(done, { type: 'success' });
      await queryClient.invalidateQueries({ queryKey: WEBHOOKS });
    } catch (e) {
      notice('webhooks.failed', { type: 'error', error: e });
    } finally {
      setBusy(false);
    }
  };

  const columns: CardColumn<Webhook>[] = [
    { id: 'url', label: translate('webhooks.url'), render: (w) => w.url, sx: { wordBreak: 'break-all' } },
    {
      id: 'events',
      label: translate('webhooks.events'),
      render: (w) =>
        w.event_types.includes('*')
          ? translate('webhooks.all_events')
          : translate('webhooks.events_count', { smart_count: w.event_types.length }),
      hideBelow: 'md',
    },
    {
      id: 'status',
      label: translate('webhooks.status'),
      render: (w) =>
        w.is_active ? (
          <Chip size="small" color="success" label={translate('webhooks.active')} />
        ) : (
          <Stack spacing={0.5}>
            <Chip size="small" color="warning" label={translate('webhooks.disabled')} data-testid="webhook-disabled" />
            {w.disabled_reason && (
              <Typography variant="caption" data-testid="webhook-disabled-reason">
                {w.disabled_reason}
              </Typography>
            )}
          </Stack>
        ),
    },
    {
      id: 'created_at',
      label: translate('webhooks.created_at'),
      render: (w) => <DateTimeText value={w.created_at} />,
      hideBelow: 'lg',
    },
  ];

  return (
    <>
      <RecordsCard<Webhook>
        testId="webhooks"
        title={translate('app.webhooks.title')}
        subheader={translate('webhooks.intro')}
        query={hooks}
        rows={hooks.data}
        columns={columns}
        emptyKey="webhooks.empty"
        captionKey="webhooks.caption"
        emptyTestId="webhooks-empty"
        rowTestId="webhook-row"
        add={{ labelKey: 'webhooks.add', testId: 'webhook-add', onClick: () => setAdding(true) }}
        rowActions={{
          actionsLabel: translate('webhooks.actions'),
          actions: (w) => (
            <Stack direction="row" spacing={1}>
              <Button size="small" onClick={() => setViewing(w)} data-testid="webhook-log">
                {translate('webhooks.log')}
              </Button>
              <Button
                size="small"
                disabled={busy}
                onClick={() =>
                  void act(
                    () => dataProvider.setWebhookActive(w.id, !w.is_active),
                    w.is_active ? 'webhooks.turned_off' : 'webhooks.turned_on',
                  )
                }
                data-testid="webhook-toggle"
              >
                {translate(w.is_active ? 'webhooks.turn_off' : 'webhooks.turn_on')}
              </Button>
              <Tooltip title={translate('webhooks.secret.body')}>
                <Button
                  size="small"
                  disabled={busy}
                  onClick={() => void act(async () => setSecret((await dataProvider.rotateWebhookSecret(w.id)).secret))}
                >
                  {translate('webhooks.rotate')}
                </Button>
              </Tooltip>
              <Button size="small" color="error" onClick={() => setRemoving(w)} data-testid="webhook-remove">
                {translate('webhooks.remove')}
              </Button>
            </Stack>
          ),
        }}
      />
      {viewing && (
        <Box sx={{ mt: 3 }}>
          <DeliveryLog key={viewing.id} webhook={viewing} onClose={() => setViewing(null)} />
        </Box>
      )}
      {adding && (
        <CreateWebhookDialog
          onClose={() => setAdding(false)}
          onCreated={(w) => {
            setAdding(false);
            setSecret(w.secret);
            void queryClient.invalidateQueries({ queryKey: WEBHOOKS });
          }}
        />
      )}
      {secret && <SecretDialog secret={secret} onClose={() => setSecret(null)} />}
      <Confirm
        isOpen={removing !== null}
        loading={busy}
        title="webhooks.remove_title"
        content="webhooks.remove_content"
        translateOptions={{ url: removing?.url ?? '' }}
        onClose={() => setRemoving(null)}
        onConfirm={() => {
          const w = removing;
          setRemoving(null);
          if (viewing?.id === w?.id) setViewing(null);
          if (w) void act(() => dataProvider.deleteWebhook(w.id), 'webhooks.removed');
        }}
      />
    </>
  );
};

/** `/webhooks`: needs cluster.read on some cluster (the server checks it too). */
export const Webhooks = () => (
  <RequireAccess action="list" resource="webhooks">
    <ScreenMessages modules={MODULES}>
      <WebhooksTitle />
      <Box sx={{ mt: 2, mb: 4 }}>
        <WebhooksCard />
      </Box>
    </ScreenMessages>
  </RequireAccess>
);

const WebhooksTitle = () => {
  const translate = useTranslate();
  return <Title title={translate('app.webhooks.title')} />;
};
