import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  CardHeader,
  Chip,
  CircularProgress,
  Skeleton,
  Stack,
  Typography,
} from '@mui/material';
import { useTranslate } from 'react-admin';
import { useApprovalFeed, usePendingCount } from './feeds';
import { useFormatters } from './format';
import { CardTable, type CardColumn } from '../components/card-table/CardTable';
import type { ApprovalDocType, ApprovalFeed } from '../types';

type ApprovalItem = ApprovalFeed['groups'][number]['items'][number];

const RetryAlert = ({ message, onRetry }: { message: string; onRetry: () => void }) => {
  const translate = useTranslate();
  return (
    <Alert
      severity="error"
      action={
        <Button color="inherit" size="small" onClick={onRetry}>
          {translate('domain_dashboards.feeds.retry')}
        </Button>
      }
    >
      {translate(message)}
    </Alert>
  );
};

/** "Waiting on me" count of one document type (live). */
export const PendingCountCard = ({ doc }: { doc: ApprovalDocType }) => {
  const translate = useTranslate();
  const { number } = useFormatters();
  // A failed refetch shows in `error`; it never rejects, so a retry fires it and forgets it.
  const { data, isPending, error, refetch } = usePendingCount(doc);
  return (
    <Card variant="outlined" sx={{ height: '100%' }} data-testid={`pending-count-${doc}`}>
      <CardContent>
        <Typography variant="overline" color="text.secondary">
          {translate(`domain_dashboards.feeds.pending_${doc}`)}
        </Typography>
        {isPending ? (
          <Skeleton
            variant="text"
            width={60}
            sx={{ fontSize: '2.5rem' }}
            aria-label={translate('domain_dashboards.feeds.loading')}
          />
        ) : error || !data ? (
          <RetryAlert message="domain_dashboards.feeds.count_error" onRetry={() => void refetch()} />
        ) : (
          <Typography variant="h4" component="p">
            {number(data.pending)}
          </Typography>
        )}
        <Chip size="small" color="primary" variant="outlined" label={translate('domain_dashboards.live')} />
      </CardContent>
    </Card>
  );
};

/** Approval items grouped by document type: the summary (at most five per type) or the full pending list. */
export const ApprovalFeedCard = ({
  source,
  docTypes,
}: {
  source: 'summary' | 'pending';
  docTypes: ApprovalDocType[];
}) => {
  const translate = useTranslate();
  const { amount, date } = useFormatters();
  // A failed refetch shows in `error`; it never rejects, so a retry fires it and forgets it.
  const { data, isPending, error, refetch } = useApprovalFeed(source);
  const groups = (data?.groups ?? []).filter((g) => docTypes.includes(g.doc_type));
  const label = (key: string) => translate(`domain_dashboards.feeds.columns.${key}`);
  const columns: CardColumn<ApprovalItem>[] = [
    { id: 'doc_no', label: label('doc_no'), render: (item) => item.doc_no },
    { id: 'doc_date', label: label('doc_date'), render: (item) => date(item.doc_date) },
    { id: 'business_unit', label: label('business_unit'), render: (item) => item.business_unit_name },
    { id: 'requestor', label: label('requestor'), render: (item) => item.requestor_name ?? '—' },
    { id: 'stage', label: label('stage'), render: (item) => item.workflow_current_stage },
    {
      id: 'total_amount',
      label: label('total_amount'),
      align: 'right',
      render: (item) => amount(item.total_amount, item.currency_code),
    },
  ];

  return (
    <Card variant="outlined" data-testid={`approval-${source}`}>
      <CardHeader
        title={translate(`domain_dashboards.feeds.approval_${source}`)}
        action={<Chip size="small" color="primary" variant="outlined" label={translate('domain_dashboards.live')} />}
      />
      <CardContent>
        {isPending ? (
          <Box display="flex" justifyContent="center" p={2}>
            <CircularProgress size={28} aria-label={translate('domain_dashboards.feeds.loading')} />
          </Box>
        ) : error || !data ? (
          <RetryAlert message="domain_dashboards.feeds.approval_error" onRetry={() => void refetch()} />
        ) : groups.every((g) => g.items.length === 0) ? (
          <Typography color="text.secondary" data-testid="approval-empty">
            {translate('domain_dashboards.feeds.approval_empty')}
          </Typography>
        ) : (
          <Stack spacing={2}>
            {groups.map((g, gi) => (
              <Box key={`${g.doc_type}-${gi}`} data-testid={`approval-group-${g.doc_type}`}>
                <Stack direction="row" spacing={1} alignItems="center" sx={{ mb: 0.5 }}>
                  <Typography variant="subtitle1">{translate(`domain_dashboards.doc_types.${g.doc_type}`)}</Typography>
                  <Chip size="small" label={translate('domain_dashboards.feeds.group_count', { count: g.count })} />
                  {g.totals.length > 0 && (
                    <Typography variant="body2" color="text.secondary" data-testid={`approval-total-${g.doc_type}`}>
                      {translate('domain_dashboards.feeds.group_total', {
                        // One figure per currency: amounts in different currencies are never added together.
                        total: g.totals.map((t) => amount(t.total_amount, t.currency_code)).join(' · '),
                      })}
                    </Typography>
                  )}
                </Stack>
                <CardTable
                  rows={g.items}
                  rowKey={(item, ii) => `${item.id}-${ii}`}
                  columns={columns}
                  empty={translate('domain_dashboards.feeds.group_empty')}
                />
              </Box>
            ))}
          </Stack>
        )}
      </CardContent>
    </Card>
  );
};
