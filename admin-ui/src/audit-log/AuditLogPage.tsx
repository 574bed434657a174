import { Fragment, useState, type HTMLAttributes } from 'react';
import { Title, useCanAccess, useRequireAccess, useTranslate } from 'react-admin';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import {
  Box,
  Card,
  Chip,
  Collapse,
  IconButton,
  LinearProgress,
  Link as MuiLink,
  MenuItem,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TablePagination,
  TableRow,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import KeyboardArrowDownIcon from '@mui/icons-material/KeyboardArrowDown';
import KeyboardArrowUpIcon from '@mui/icons-material/KeyboardArrowUp';
import CancelIcon from '@mui/icons-material/Cancel';
import { Link, useSearchParams } from 'react-router-dom';
import type { AuditEvent, Cluster, UserAccount } from '../types';
import { useAppDataProvider } from '../dataProvider/useAppDataProvider';
import { ErrorState } from '../components/ErrorState';
import { CsvExport } from '../components/export/CsvExport';
import {
  AUDIT_TARGET_TYPES,
  ChangesTable,
  recordPath,
  useActionLabel,
  useActorLabel,
  useTargetLabel,
} from '../components/history/auditWords';
import { ClusterAutocomplete, UserAutocomplete } from '../resources/users/RecordAutocomplete';
import { formatDateTime } from '../lib/audit';
import {
  AUDIT_ACTIONS,
  IMPORT_ID_PARAM,
  NO_AUDIT_FILTERS,
  toAuditFilter,
  toAuditQuery,
  type AuditFilters,
} from './auditQuery';
import { ScreenMessages } from '../components/history/ScreenMessages';
import { auditScreenMessages } from './messages';

const AUDIT_MESSAGES = [auditScreenMessages];

const PER_PAGE_OPTIONS = [25, 50, 100];

const EventRow = ({ event }: { event: AuditEvent }) => {
  const translate = useTranslate();
  const actionLabel = useActionLabel();
  const actorLabel = useActorLabel();
  const targetLabel = useTargetLabel();
  const [open, setOpen] = useState(false);
  const path = recordPath(event);
  const target = targetLabel(event.target_type);
  return (
    <Fragment>
      <TableRow hover data-testid="audit-row" sx={{ '& > td': { borderBottom: open ? 'none' : undefined } }}>
        <TableCell padding="checkbox">
          <Tooltip title={translate(open ? 'audit.log.hide_details' : 'audit.log.details')}>
            <IconButton
              size="small"
              onClick={() => setOpen((o) => !o)}
              aria-expanded={open}
              aria-label={translate(open ? 'audit.log.hide_details' : 'audit.log.details')}
              data-testid="audit-row-toggle"
            >
              {open ? <KeyboardArrowUpIcon fontSize="small" /> : <KeyboardArrowDownIcon fontSize="small" />}
            </IconButton>
          </Tooltip>
        </TableCell>
        <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDateTime(event.at)}</TableCell>
        <TableCell>{actorLabel(event)}</TableCell>
        <TableCell>{actionLabel(event.action)}</TableCell>
        <TableCell>
          {path ? (
            <MuiLink
              component={Link}
              to={path}
              underline="hover"
              title={translate('audit.log.open_record')}
              data-testid="audit-record-link"
            >
              {target}
            </MuiLink>
          ) : (
            target
          )}
        </TableCell>
      </TableRow>
      <TableRow>
        <TableCell colSpan={5} sx={{ py: 0 }}>
          <Collapse in={open} unmountOnExit>
            <Box sx={{ py: 1.5 }}>
              <ChangesTable event={event} />
              {(event.request_id || event.ip) && (
                <Typography variant="caption" color="text.secondary" component="div" sx={{ mt: 1 }}>
                  {translate('audit.log.request', { id: event.request_id ?? '—', ip: event.ip ?? '—' })}
                </Typography>
              )}
            </Box>
          </Collapse>
        </TableCell>
      </TableRow>
    </Fragment>
  );
};

/**
 * Every change the caller may see, newest first: filters by record type, actor, action, cluster and days; a row
 * unfolds to its field changes and links to its record where the console has a page for it.
 */
const AuditLogScreen = () => {
  const translate = useTranslate();
  const actionLabel = useActionLabel();
  const targetLabel = useTargetLabel();
  const dataProvider = useAppDataProvider();
  useRequireAccess({ action: 'list', resource: 'audit-log' });
  const { canAccess } = useCanAccess({ action: 'list', resource: 'audit-log' });
  // The actor filter searches the accounts, which needs `user.read`.
  const { canAccess: canListUsers } = useCanAccess({ action: 'list', resource: 'users' });
  // An import's result links here with `?import_id=`; the address is the filter's only source, so a link can share it.
  const [searchParams, setSearchParams] = useSearchParams();
  const importId = searchParams.get(IMPORT_ID_PARAM) ?? '';
  const [fieldFilters, setFilters] = useState<AuditFilters>(NO_AUDIT_FILTERS);
  const filters: AuditFilters = { ...fieldFilters, importId };
  const [actor, setActor] = useState<UserAccount | null>(null);
  const [cluster, setCluster] = useState<Cluster | null>(null);
  const [page, setPage] = useState(1);
  const [perpage, setPerpage] = useState(25);
  const change = (next: Partial<AuditFilters>) => {
    setFilters((prev) => ({ ...prev, ...next }));
    setPage(1);
  };
  const clearImport = () => {
    setSearchParams((prev) => {
      const params = new URLSearchParams(prev);
      params.delete(IMPORT_ID_PARAM);
      return params;
    });
    setPage(1);
  };
  const query = toAuditQuery(filters, page, perpage);
  const events = useQuery({
    queryKey: ['auditEvents', 'log', query],
    queryFn: () => dataProvider.listAuditEvents(query),
    enabled: canAccess === true,
    placeholderData: keepPreviousData,
  });
  const rows = events.data?.data ?? [];
  const total = events.data?.paginate.total ?? 0;
  const f = (k: string) => translate(`audit.log.${k}`);

  return (
    <Box sx={{ mt: 2 }} data-testid="audit-log">
      <Title title={translate('app.audit_log.title')} />
      <Stack direction="row" spacing={2} useFlexGap alignItems="center" sx={{ mb: 2, flexWrap: 'wrap', rowGap: 1 }}>
        <TextField
          select
          size="small"
          label={f('target_type')}
          value={filters.targetType}
          onChange={(e) => change({ targetType: AUDIT_TARGET_TYPES.find((t) => t === e.target.value) ?? '' })}
          sx={{ minWidth: 180 }}
          SelectProps={{
            SelectDisplayProps: { 'data-testid': 'filter-target-type' } as HTMLAttributes<HTMLDivElement>,
          }}
        >
          <MenuItem value="">{f('any')}</MenuItem>
          {AUDIT_TARGET_TYPES.map((t) => (
            <MenuItem key={t} value={t}>
              {targetLabel(t)}
            </MenuItem>
          ))}
        </TextField>
        {canListUsers && (
          <UserAutocomplete
            label={f('actor')}
            value={actor}
            onChange={(u) => {
              setActor(u);
              change({ actorId: u?.id ?? '' });
            }}
            testId="filter-actor"
          />
        )}
        <TextField
          select
          size="small"
          label={f('action')}
          value={filters.action}
          onChange={(e) => change({ action: e.target.value })}
          sx={{ minWidth: 200 }}
          SelectProps={{ SelectDisplayProps: { 'data-testid': 'filter-action' } as HTMLAttributes<HTMLDivElement> }}
        >
          <MenuItem value="">{f('any')}</MenuItem>
          {AUDIT_ACTIONS.map((a) => (
            <MenuItem key={a} value={a}>
              {actionLabel(a)}
            </MenuItem>
          ))}
        </TextField>
        <ClusterAutocomplete
          label={translate('resources.clusters.name', { smart_count: 1 })}
          value={cluster}
          onChange={(c) => {
            setCluster(c);
            change({ clusterId: c?.id ?? '' });
          }}
          testId="filter-cluster"
        />
        <TextField
          type="date"
          size="small"
          label={f('from')}
          value={filters.from}
          onChange={(e) => change({ from: e.target.value })}
          InputLabelProps={{ shrink: true }}
          inputProps={{ 'data-testid': 'filter-from', max: filters.to || undefined }}
        />
        <TextField
          type="date"
          size="small"
          label={f('to')}
          value={filters.to}
          onChange={(e) => change({ to: e.target.value })}
          InputLabelProps={{ shrink: true }}
          inputProps={{ 'data-testid': 'filter-to', min: filters.from || undefined }}
        />
        {importId && (
          <Chip
            label={translate('audit.log.import_filter', { id: importId })}
            onDelete={clearImport}
            data-testid="filter-import"
            deleteIcon={<CancelIcon aria-label={f('clear_import_filter')} />}
          />
        )}
        <Box sx={{ flex: 1 }} />
        <CsvExport
          request={{ resource: 'audit-events', filter: toAuditFilter(filters) }}
          page={{ page, perPage: perpage }}
          pageRows={rows.length}
          total={total}
          loading={events.isFetching}
        />
      </Stack>
      <Card>
        {events.isFetching && <LinearProgress data-testid="list-loading" />}
        {events.isError ? (
          <Box sx={{ p: 2 }}>
            <ErrorState error={events.error} onRetry={() => void events.refetch()} />
          </Box>
        ) : !events.isPending && rows.length === 0 ? (
          <Box sx={{ p: 4, textAlign: 'center' }} data-testid="list-empty">
            <Typography variant="h6" color="text.secondary">
              {f('empty')}
            </Typography>
          </Box>
        ) : (
          <TableContainer>
            <Table size="small">
              <TableHead>
                <TableRow>
                  <TableCell padding="checkbox" />
                  <TableCell sx={{ fontWeight: 600 }}>{f('when')}</TableCell>
                  <TableCell sx={{ fontWeight: 600 }}>{f('actor')}</TableCell>
                  <TableCell sx={{ fontWeight: 600 }}>{f('action')}</TableCell>
                  <TableCell sx={{ fontWeight: 600 }}>{f('target')}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {rows.map((e) => (
                  <EventRow key={e.id} event={e} />
                ))}
              </TableBody>
            </Table>
          </TableContainer>
        )}
        <TablePagination
          component="div"
          count={total}
          page={Math.max(0, page - 1)}
          rowsPerPage={perpage}
          rowsPerPageOptions={PER_PAGE_OPTIONS}
          onPageChange={(_, p) => setPage(p + 1)}
          onRowsPerPageChange={(e) => {
            setPerpage(Number(e.target.value));
            setPage(1);
          }}
          labelRowsPerPage={translate('ra.navigation.page_rows_per_page')}
          labelDisplayedRows={({ from, to, count }) => translate('app.list.range', { from, to, count })}
          getItemAriaLabel={(type) => translate(`app.list.go_to_${type}`)}
        />
      </Card>
    </Box>
  );
};

export const AuditLog = () => (
  <ScreenMessages modules={AUDIT_MESSAGES}>
    <AuditLogScreen />
  </ScreenMessages>
);
