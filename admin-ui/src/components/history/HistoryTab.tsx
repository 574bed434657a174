import { useState } from 'react';
import { useTranslate } from 'react-admin';
import { useInfiniteQuery } from '@tanstack/react-query';
import {
  Box,
  Button,
  Card,
  CardContent,
  CardHeader,
  CircularProgress,
  Collapse,
  Divider,
  IconButton,
  LinearProgress,
  Stack,
  Typography,
} from '@mui/material';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import ExpandLessIcon from '@mui/icons-material/ExpandLess';
import type { AuditEvent, AuditTargetType } from '../../types';
import { useAppDataProvider } from '../../dataProvider/useAppDataProvider';
import { DateTimeText } from '../DateTimeText';
import { ErrorState } from '../ErrorState';
import { ChangesTable } from './ChangesTable';
import { EventSummary } from './EventSummary';
import { RevertButton } from './RevertButton';
import { useActorLabel } from './words';
import { ScreenMessages } from './ScreenMessages';
import { auditScreenMessages } from '../../audit-log/messages';

const HISTORY_MESSAGES = [auditScreenMessages];

const PAGE_SIZE = 10;

/** The kinds of record whose History includes the changes to their memberships. */
const WITH_MEMBERSHIPS: ReadonlySet<AuditTargetType> = new Set(['cluster', 'business_unit']);

const HistoryEntry = ({ event }: { event: AuditEvent }) => {
  const actorLabel = useActorLabel();
  return (
    <Box data-testid="history-event" data-action={event.action} sx={{ py: 1.5 }}>
      <Stack direction="row" spacing={1} alignItems="baseline" useFlexGap flexWrap="wrap" sx={{ mb: 1 }}>
        <Typography variant="subtitle2" component="span" data-testid="history-summary">
          <EventSummary event={event} />
        </Typography>
        <Typography variant="body2" component="span" color="text.secondary">
          {actorLabel(event)} · <DateTimeText value={event.at} />
        </Typography>
        <Box sx={{ flex: 1 }} />
        <RevertButton event={event} />
      </Stack>
      <ChangesTable event={event} summary={false} />
    </Box>
  );
};

/**
 * The record's audit events (a cluster's and a unit's with their memberships'), newest first, each with what it did in
 * words, who, when, the fields before and after, and Revert where it can be reverted; "more" loads the next page.
 */
const HistoryList = ({ targetType, targetId }: { targetType: AuditTargetType; targetId: string }) => {
  const translate = useTranslate();
  const dataProvider = useAppDataProvider();
  const history = useInfiniteQuery({
    queryKey: ['auditEvents', 'history', targetType, targetId],
    // "More" walks by the server's cursor, not by page number: an event recorded while the operator reads (their own
    // revert, say) would otherwise shift every later page by one and show an event twice.
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) =>
      dataProvider.listAuditEvents({
        target_type: targetType,
        target_id: targetId,
        ...(WITH_MEMBERSHIPS.has(targetType) ? { with_memberships: true } : {}),
        ...(pageParam ? { cursor: pageParam } : { page: 1 }),
        perpage: PAGE_SIZE,
        // Only whether more follow matters here, so the server need not count every event of the record.
        total: 'estimate',
      }),
    getNextPageParam: (last) => last.paginate.next_cursor ?? undefined,
  });
  const events = history.data?.pages.flatMap((p) => p.data) ?? [];

  return (
    <Box data-testid="history-tab">
      {history.isFetching && !history.isFetchingNextPage && <LinearProgress />}
      {history.isError ? (
        <ErrorState error={history.error} onRetry={() => void history.refetch()} />
      ) : history.isPending ? (
        <Box sx={{ p: 2, textAlign: 'center' }} data-testid="history-loading">
          <CircularProgress size={24} />
        </Box>
      ) : events.length === 0 ? (
        <Typography color="text.secondary" sx={{ p: 2 }} data-testid="history-empty">
          {translate('audit.history.empty')}
        </Typography>
      ) : (
        <Stack divider={<Divider flexItem />}>
          {events.map((e) => (
            <HistoryEntry key={e.id} event={e} />
          ))}
        </Stack>
      )}
      {history.hasNextPage && (
        <Box sx={{ textAlign: 'center', mt: 1 }}>
          <Button
            onClick={() => void history.fetchNextPage()}
            disabled={history.isFetchingNextPage}
            data-testid="history-more"
          >
            {translate('audit.history.more')}
          </Button>
        </Box>
      )}
    </Box>
  );
};

/**
 * The History tab as a card of a read view. It opens folded and reads the trail only when unfolded, so a record's page
 * costs no audit query unless someone looks.
 */
const HistoryCardBody = (props: { targetType: AuditTargetType; targetId: string }) => {
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  return (
    <Card data-testid="history-card">
      <CardHeader
        title={translate('audit.history.title')}
        action={
          <IconButton
            onClick={() => setOpen((o) => !o)}
            aria-expanded={open}
            aria-label={translate(open ? 'audit.log.hide_details' : 'audit.log.details')}
            data-testid="history-toggle"
          >
            {open ? <ExpandLessIcon /> : <ExpandMoreIcon />}
          </IconButton>
        }
      />
      <Collapse in={open} unmountOnExit>
        <CardContent>
          <HistoryList {...props} />
        </CardContent>
      </Collapse>
    </Card>
  );
};

export const HistoryTab = (props: { targetType: AuditTargetType; targetId: string }) => (
  <ScreenMessages modules={HISTORY_MESSAGES}>
    <HistoryList {...props} />
  </ScreenMessages>
);

export const HistoryCard = (props: { targetType: AuditTargetType; targetId: string }) => (
  <ScreenMessages modules={HISTORY_MESSAGES}>
    <HistoryCardBody {...props} />
  </ScreenMessages>
);
