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
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { useTranslate } from 'react-admin';
import { useApprovalFeed, usePendingCount } from './feeds';
import { useFormatters } from './format';
import type { ApprovalDocType } from '../types';

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
                {g.items.length === 0 ? (
                  <Typography variant="body2" color="text.secondary">
                    {translate('domain_dashboards.feeds.group_empty')}
                  </Typography>
                ) : (
                  <Table size="small">
                    <TableHead>
                      <TableRow>
                        <TableCell>{translate('domain_dashboards.feeds.columns.doc_no')}</TableCell>
                        <TableCell>{translate('domain_dashboards.feeds.columns.doc_date')}</TableCell>
                        <TableCell>{translate('domain_dashboards.feeds.columns.business_unit')}</TableCell>
                        <TableCell>{translate('domain_dashboards.feeds.columns.requestor')}</TableCell>
                        <TableCell>{translate('domain_dashboards.feeds.columns.stage')}</TableCell>
                        <TableCell align="right">{translate('domain_dashboards.feeds.columns.total_amount')}</TableCell>
                      </TableRow>
                    </TableHead>
                    <TableBody>
                      {g.items.map((item, ii) => (
                        <TableRow key={`${item.id}-${ii}`}>
                          <TableCell>{item.doc_no}</TableCell>
                          <TableCell>{date(item.doc_date)}</TableCell>
                          <TableCell>{item.business_unit_name}</TableCell>
                          <TableCell>{item.requestor_name ?? '—'}</TableCell>
                          <TableCell>{item.workflow_current_stage}</TableCell>
                          <TableCell align="right">{amount(item.total_amount, item.currency_code)}</TableCell>
                        </TableRow>
                      ))}
                    </TableBody>
                  </Table>
                )}
              </Box>
            ))}
          </Stack>
        )}
      </CardContent>
    </Card>
  );
};
