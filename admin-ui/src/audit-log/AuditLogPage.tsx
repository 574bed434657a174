import { Title, useCanAccess, useRequireAccess, useTranslate } from 'react-admin';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Box, Card, Chip, LinearProgress } from '@mui/material';
import CancelIcon from '@mui/icons-material/Cancel';
import { useSearchParams } from 'react-router-dom';
import type { AuditFilters as AuditFilterValues } from './auditQuery';
import { useAppDataProvider } from '../dataProvider/useAppDataProvider';
import { ListStates } from '../components/list/ListStates';
import { CsvExport } from '../components/export/CsvExport';
import { ListPagination } from '../components/list/ListPagination';
import { IMPORT_ID_PARAM, toAuditFilter, toAuditQuery } from './auditQuery';
import { ScreenMessages } from '../components/history/ScreenMessages';
import { auditScreenMessages } from './messages';
import { useAuditColumns, useAuditDetail } from './AuditEventRow';
import { ListTable } from '../components/list/ListTable';
import { ListToolbar } from '../components/list/ListToolbar';
import { AuditFilters } from './AuditFilters';
import { useAuditLogState } from './useAuditLogState';

const AUDIT_MESSAGES = [auditScreenMessages];

const PER_PAGE_OPTIONS = [25, 50, 100];

/**
 * Every change the caller may see, newest first: the Filters sheet narrows by record type, actor, action, cluster and
 * days, and is remembered; a row unfolds to its field changes and links to its record where the console has a page.
 */
const AuditLogScreen = () => {
  const translate = useTranslate();
  const dataProvider = useAppDataProvider();
  useRequireAccess({ action: 'list', resource: 'audit-log' });
  const { canAccess } = useCanAccess({ action: 'list', resource: 'audit-log' });
  // An import's result links here with `?import_id=`; the address is that filter's only source, so a link can share it.
  const [searchParams, setSearchParams] = useSearchParams();
  const importId = searchParams.get(IMPORT_ID_PARAM) ?? '';
  const [state, update] = useAuditLogState();
  const columns = useAuditColumns();
  const detail = useAuditDetail();
  const filters: AuditFilterValues = { ...state.filters, importId };
  const clearImport = () => {
    setSearchParams((prev) => {
      const params = new URLSearchParams(prev);
      params.delete(IMPORT_ID_PARAM);
      return params;
    });
    update({});
  };
  const query = toAuditQuery(filters, state.page, state.perpage);
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
      <ListToolbar
        filters={
          <>
            <AuditFilters state={state} update={update} />
            {importId && (
              <Chip
                label={translate('audit.log.import_filter', { id: importId })}
                onDelete={clearImport}
                data-testid="filter-import"
                deleteIcon={<CancelIcon aria-label={f('clear_import_filter')} />}
              />
            )}
          </>
        }
        exporter={
          <CsvExport
            request={{ resource: 'audit-events', filter: toAuditFilter(filters) }}
            page={{ page: state.page, perPage: state.perpage }}
            pageRows={rows.length}
            total={total}
            loading={events.isFetching}
          />
        }
      />
      <Card>
        {events.isFetching && <LinearProgress data-testid="list-loading" />}
        <ListStates
          error={events.isError ? events.error : null}
          onRetry={() => void events.refetch()}
          empty={!events.isPending && rows.length === 0}
          emptyText={f('empty')}
        >
          <ListTable testId="audit-table" rowTestId="audit-row" rows={rows} columns={columns} detail={detail} />
        </ListStates>
        <ListPagination
          total={total}
          page={state.page}
          perpage={state.perpage}
          options={PER_PAGE_OPTIONS}
          onChange={(change) => update({ ...change, page: change.page ?? 1 })}
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
