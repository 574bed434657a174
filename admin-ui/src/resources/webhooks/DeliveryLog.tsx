import { useState } from 'react';
import { useTranslate } from 'react-admin';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Chip, TablePagination } from '@mui/material';
import type { Webhook, WebhookDelivery } from '../../types';
import { useAppDataProvider } from '../../dataProvider/useAppDataProvider';
import { RecordsCard, type CardColumn } from '../../components/card-table';
import { DateTimeText } from '../../components/DateTimeText';
import { useNotice, useReason } from '../../lib/notice';

const PER_PAGE = 20;
const COLOURS = { pending: 'info', delivered: 'success', failed: 'error', skipped: 'default' } as const;

/** A webhook's deliveries, newest first: each one's status, its latest attempt, and Send again. */
export const DeliveryLog = ({ webhook, onClose }: { webhook: Webhook; onClose: () => void }) => {
  const translate = useTranslate();
  const dataProvider = useAppDataProvider();
  const queryClient = useQueryClient();
  const problemText = useReason();
  const notice = useNotice();
  const [page, setPage] = useState(1);
  const [failure, setFailure] = useState('');
  const key = ['webhookDeliveries', webhook.id, page];
  const log = useQuery({
    queryKey: key,
    queryFn: () => dataProvider.listWebhookDeliveries(webhook.id, page, PER_PAGE),
    // Pending deliveries change by themselves: the log follows them while it is open.
    refetchInterval: (q) => (q.state.data?.data.some((d) => d.status === 'pending') ? 2000 : false),
  });

  const sendAgain = async (d: WebhookDelivery) => {
    setFailure('');
    try {
      await dataProvider.redeliverWebhookDelivery(webhook.id, d.id);
      notice('webhooks.deliveries.queued', { type: 'success' });
      await queryClient.invalidateQueries({ queryKey: ['webhookDeliveries', webhook.id] });
    } catch (e) {
      setFailure(problemText(e));
    }
  };

  const last = (d: WebhookDelivery) => {
    const a = d.attempts[0];
    if (!a) return '—';
    const status = a.status_code === null ? translate('webhooks.deliveries.no_answer') : String(a.status_code);
    const detail = a.error ?? a.response_excerpt ?? '';
    return `${status} · ${translate('webhooks.deliveries.duration', { ms: a.duration_ms })}${detail ? ` · ${detail}` : ''}`;
  };

  const columns: CardColumn<WebhookDelivery>[] = [
    { id: 'created_at', label: translate('webhooks.created_at'), render: (d) => <DateTimeText value={d.created_at} /> },
    { id: 'event', label: translate('webhooks.deliveries.event'), render: (d) => d.event_type },
    {
      id: 'status',
      label: translate('webhooks.deliveries.status'),
      render: (d) => (
        <Chip
          size="small"
          color={COLOURS[d.status]}
          label={translate(`webhooks.deliveries.statuses.${d.status}`)}
          data-testid="delivery-status"
        />
      ),
    },
    {
      id: 'attempts',
      label: translate('webhooks.deliveries.attempts'),
      render: (d) => d.attempt_count,
      align: 'right',
    },
    { id: 'last', label: translate('webhooks.deliveries.last'), render: last, hideBelow: 'md' },
  ];

  return (
    <RecordsCard<WebhookDelivery>
      testId="webhook-deliveries"
      title={translate('webhooks.deliveries.title', { url: webhook.url })}
      query={log}
      rows={log.data?.data}
      columns={columns}
      emptyKey="webhooks.deliveries.empty"
      captionKey="webhooks.deliveries.caption"
      emptyTestId="deliveries-empty"
      rowTestId="delivery-row"
      header={
        <Button size="small" onClick={onClose}>
          {translate('webhooks.deliveries.close')}
        </Button>
      }
      alerts={
        failure && (
          <Alert severity="error" onClose={() => setFailure('')} data-testid="delivery-error">
            {failure}
          </Alert>
        )
      }
      rowActions={{
        actionsLabel: translate('webhooks.deliveries.send_again'),
        actions: (d) => (
          <Button size="small" onClick={() => void sendAgain(d)} data-testid="delivery-send-again">
            {translate('webhooks.deliveries.send_again')}
          </Button>
        ),
      }}
    >
      {(log.data?.paginate.total ?? 0) > PER_PAGE && (
        <TablePagination
          component="div"
          count={log.data!.paginate.total}
          page={page - 1}
          rowsPerPage={PER_PAGE}
          rowsPerPageOptions={[PER_PAGE]}
          onPageChange={(_e, p) => setPage(p + 1)}
        />
      )}
    </RecordsCard>
  );
};
